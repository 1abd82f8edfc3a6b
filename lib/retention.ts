import type { Db } from '@/db/client';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/idempotency';
import { deleteEventsCreatedBefore } from '@/db/queries/webhooks';

// How long records that only serve a window are kept (docs/operations.md#scheduled-jobs). Each
// deletion is its own scheduled job, so a slow or failing one holds up nothing else.

/** Webhook events (and their attempts) stay listable and resendable this long. */
export const WEBHOOK_EVENT_RETENTION_DAYS = 90;

/** Idempotency records past their 24 h window; the database's clock decides. */
export { deleteExpiredIdempotencyKeys };

export function deleteOldWebhookEvents(db: Db, now: Date = new Date()): Promise<number> {
  return deleteEventsCreatedBefore(db, new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_DAYS * 86_400_000));
}
