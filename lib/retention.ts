import type { Db } from '@/db/client';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/idempotency';
import { deleteEventsCreatedBefore } from '@/db/queries/webhooks';
import { deleteManageLinksExpiredBefore } from '@/db/queries/manage-links';
import { deleteEmailsCreatedBefore } from '@/db/queries/emails';
import { deleteAuditEntriesCreatedBefore } from '@/db/queries/audit';

// How long records that only serve a window are kept (docs/operations.md#scheduled-jobs). Each
// deletion is its own scheduled job, so a slow or failing one holds up nothing else.

/** Webhook events (and their attempts) stay listable and resendable this long. */
export const WEBHOOK_EVENT_RETENTION_DAYS = 90;

/** Customer e-mails keep their personal data this long (docs/customers.md#e-mails). */
export const EMAIL_RETENTION_DAYS = 90;

/** Manage links go this long after they expired: their use shows on the plan's page until then. */
export const MANAGE_LINK_RETENTION_DAYS = 90;

/** Audit entries are kept 2 years; migration 0019's trigger holds the same interval. */
export const AUDIT_RETENTION_DAYS = 730;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/** Idempotency records past their 24 h window; the database's clock decides. */
export { deleteExpiredIdempotencyKeys };

export function deleteOldWebhookEvents(db: Db, now: Date = new Date()): Promise<number> {
  return deleteEventsCreatedBefore(db, daysBefore(now, WEBHOOK_EVENT_RETENTION_DAYS));
}

export function deleteOldEmails(db: Db, now: Date = new Date()): Promise<number> {
  return deleteEmailsCreatedBefore(db, daysBefore(now, EMAIL_RETENTION_DAYS));
}

export function deleteOldManageLinks(db: Db, now: Date = new Date()): Promise<number> {
  return deleteManageLinksExpiredBefore(db, daysBefore(now, MANAGE_LINK_RETENTION_DAYS));
}

export function deleteOldAuditEntries(db: Db, now: Date = new Date()): Promise<number> {
  return deleteAuditEntriesCreatedBefore(db, daysBefore(now, AUDIT_RETENTION_DAYS));
}
