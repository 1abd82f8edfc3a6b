import type { Db } from '@/db/client';
import { getPlanForMerchant } from '@/db/queries/plans';
import { type EventWithAttempts, getEventForDelivery, listEvents, type WebhookAttemptRow, withAttempts } from '@/db/queries/webhooks';
import { ApiError } from '@/lib/api/errors';
import { isId } from '@/lib/ids';
import { findMerchantPlan } from '@/lib/plans/find-plan';
import { resendEvent } from './runtime';
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
  };
}

export async function listMerchantEvents(db: Db, merchantId: string, query: z.infer<typeof listEventsQuerySchema>) {
  const planId = query.subscriptionPlanId;
  if (planId !== undefined) await findMerchantPlan(db, planId, () => getPlanForMerchant(db, { merchantId, planId }));
  // One row more than the page tells whether another page follows.
  const rows = await listEvents(db, { merchantId, planId, before: query.cursor, limit: query.limit + 1 });
  const page = await withAttempts(db, rows.slice(0, query.limit));
  return {
    data: page.map(toEventView),
    nextCursor: rows.length > query.limit ? page.at(-1)!.id : null,
  };
}

/** Queues the event's delivery again (same bytes, same id); 404/403 as for plans, 409 with no URL. */
export async function resendMerchantEvent(db: Db, merchantId: string, eventId: string) {
  const notFound = new ApiError('not_found', 'No webhook event with this id');
  if (!isId('evt', eventId)) throw notFound;
  // One read: the event with its merchant's current URL.
  const found = await getEventForDelivery(db, eventId);
  if (!found) throw notFound;
  if (found.event.merchantId !== merchantId) throw new ApiError('forbidden', 'This webhook event belongs to another account');
  if (!found.webhookUrl) throw new ApiError('conflict', 'No webhook URL is configured; set one, then resend');
  await resendEvent({ eventId, merchantId });
  return { id: eventId, status: 'queued' as const };
}
