import type { Db } from '@/db/client';
import { getPlanForMerchant } from '@/db/queries/plans';
import { type EventWithAttempts, getEventWebhookUrl, listEvents, type WebhookAttemptRow, withAttempts } from '@/db/queries/webhooks';
import { ApiError } from '@/lib/api/errors';
import { findOwned } from '@/lib/api/ownership';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { webhookQueue } from './queue';
import type { listEventsQuerySchema, WebhookEventRecord } from './schemas';
import type { z } from 'zod';

// A merchant's webhook events: listed with their attempts, and sent again on request.

function toAttemptView(a: WebhookAttemptRow) {
  return {
    attemptedAt: a.attemptedAt.toISOString(),
    trigger: a.trigger,
    url: a.url,
    ok: a.ok,
    statusCode: a.statusCode,
    latencyMs: a.latencyMs,
    error: a.error,
    responseExcerpt: a.responseExcerpt,
  };
}

function toEventView(e: EventWithAttempts): WebhookEventRecord {
  return {
    id: e.id,
    event: e.type,
    subscriptionPlanId: e.planId,
    subscriptionTransactionId: e.transactionId,
    createdAt: e.createdAt.toISOString(),
    body: e.body,
    attempts: e.attempts.map(toAttemptView),
    nextRetryAt: e.nextRetryAt?.toISOString() ?? null,
  };
}

export async function listMerchantEvents(db: Db, merchantId: string, query: z.infer<typeof listEventsQuerySchema>) {
  const planId = query.subscriptionPlanId;
  if (planId !== undefined) await findMerchantPlan(db, planId, () => getPlanForMerchant(db, { merchantId, planId }));
  const rows = await listEvents(db, { merchantId, planId, before: query.cursor, limit: query.limit + 1 });
  const page = await withAttempts(db, rows.slice(0, query.limit));
  return {
    data: page.map(toEventView),
    nextCursor: rows.length > query.limit ? page.at(-1)!.id : null,
  };
}

/** Same bytes, same id; 404/403 as for plans, 409 with no URL. */
export async function resendMerchantEvent(db: Db, merchantId: string, eventId: string) {
  const found = await findOwned(db, 'evt', eventId, () => getEventWebhookUrl(db, { merchantId, eventId }));
  if (!found.webhookUrl) throw new ApiError('conflict', 'No webhook URL is configured; set one, then resend');
  await webhookQueue().enqueue([{ eventId, merchantId, kind: 'resent' }]);
  return { id: eventId, status: 'queued' as const };
}
