import { type Db, preparedFor } from '@/db/client';
import {
  claimEvents,
  claimRetries,
  type DeliveryTarget,
  getEventForDelivery,
  markDispatched,
  type NewWebhookAttempt,
  recordAttempts,
  type WebhookAttemptRow,
} from '@/db/queries/webhooks';
import type { WEBHOOK_ATTEMPT_TRIGGERS } from '@/db/schema';
import { env } from '@/lib/env';
import type { LookupFunction } from './address-guard';
import { batchCalls } from './batch';
import { DELIVERY_TIMEOUT_MS, postWebhook } from './http';
import { afterAutomaticAttempt } from './retries';
import { webhookHeaders } from './signature';

// One delivery of an outbox event (docs/webhooks.md#delivery): stored bytes, signed, POSTed once,
// recorded. An automatic delivery takes the event's lease; a resend always sends.

type DeliveryTrigger = (typeof WEBHOOK_ATTEMPT_TRIGGERS)[number];

/** Longer than any delivery, so a live one is never taken over. */
export const LEASE_MS = DELIVERY_TIMEOUT_MS * 6;

type DeliveryResult =
  | { status: 'sent'; attempt: WebhookAttemptRow; nextRetryAt: Date | null }
  | { status: 'no_url' | 'disabled' | 'already_handled' | 'not_found' };

interface DeliveryOptions {
  trigger: DeliveryTrigger;
  /** A due retry, taken by its own lease. */
  retry?: boolean;
  /** Retries are due by and scheduled from this (a test clock); the attempt is timed for real. */
  now?: Date;
  /** Another merchant's event is `not_found` (a merchant's own resend). */
  merchantId?: string;
  /** Overrides WEBHOOK_ALLOW_PRIVATE_NETWORK (tests). */
  allowPrivateNetwork?: boolean;
  resolve?: LookupFunction;
}

/** Per merchant, so a hanging receiver holds up only its own. */
export const WEBHOOK_CONCURRENCY_PER_MERCHANT = 5;

export interface WebhookJob {
  eventId: string;
  merchantId: string;
  kind: 'created' | 'swept' | 'retry' | 'resent';
  /** A retry: when it was due (ISO); taken as of then or now, whichever is later. */
  dueAt?: string;
}

/** lib/webhooks/queue.ts holds the one in use. */
export interface WebhookQueue {
  /** Resolves once the jobs are accepted, not delivered. */
  enqueue(jobs: WebhookJob[]): Promise<void>;
}

export async function deliverJob(db: Db, job: Pick<WebhookJob, 'eventId' | 'kind' | 'dueAt'>) {
  // As of the later of due and now: a runner woken on time finds it due, a late one leases from now.
  const now = job.dueAt ? new Date(Math.max(Date.now(), Date.parse(job.dueAt))) : undefined;
  const result = await deliverEvent(db, job.eventId, { trigger: job.kind === 'resent' ? 'manual' : 'automatic', retry: job.kind === 'retry', now });
  return result.status === 'sent'
    ? {
        status: result.status,
        ok: result.attempt.ok,
        statusCode: result.attempt.statusCode,
        error: result.attempt.error,
        nextRetryAt: result.nextRetryAt?.toISOString() ?? null,
      }
    : { status: result.status, nextRetryAt: null };
}

const claimBatch = preparedFor((db) =>
  batchCalls(async (eventIds: string[]): Promise<(DeliveryTarget | undefined)[]> => {
    const taken = new Map((await claimEvents(db, [...new Set(eventIds)], new Date(), LEASE_MS)).map((row) => [row.id, row]));
    // The same event twice in one batch (racing dispatchers) is taken once.
    return eventIds.map((id) => {
      const row = taken.get(id);
      taken.delete(id);
      return row;
    });
  }),
);

/** An automatic one's dispatch is recorded atomically with it. */
const recordBatch = preparedFor((db) =>
  batchCalls((records: { attempt: NewWebhookAttempt; automatic: boolean }[]) =>
    recordAttempts(
      db,
      records.map((r) => r.attempt),
      { dispatchedIds: records.filter((r) => r.automatic).map((r) => r.attempt.eventId), now: new Date() },
    ),
  ),
);

/** One statement each: retries are few and spread in time. */
async function claimRetry(db: Db, eventId: string, now: Date): Promise<DeliveryTarget | undefined> {
  const [event] = await claimRetries(db, [eventId], now, LEASE_MS);
  return event;
}

export async function deliverEvent(db: Db, eventId: string, options: DeliveryOptions): Promise<DeliveryResult> {
  const automatic = options.trigger === 'automatic';
  const now = options.now ?? new Date();
  const event = options.retry ? await claimRetry(db, eventId, now) : automatic ? await claimBatch(db)(eventId) : await getEventForDelivery(db, eventId);
  if (!event) return { status: automatic ? 'already_handled' : 'not_found' };
  if (options.merchantId && event.merchantId !== options.merchantId) return { status: 'not_found' };
  const { webhookUrl } = event;
  if (!webhookUrl || (automatic && event.webhookDisabledAt)) {
    // Recorded, never attempted, without a URL or with the endpoint disabled; a URL set later sends nothing.
    if (automatic) await markDispatched(db, event.id, new Date());
    return { status: webhookUrl ? 'disabled' : 'no_url' };
  }
  const attemptedAt = new Date();
  const outcome = await postWebhook({
    url: webhookUrl,
    body: event.body,
    headers: webhookHeaders(event, event),
    allowPrivateNetwork: options.allowPrivateNetwork ?? env().WEBHOOK_ALLOW_PRIVATE_NETWORK,
    resolve: options.resolve,
  });
  const attempt = await recordBatch(db)({
    attempt: { eventId: event.id, trigger: options.trigger, url: webhookUrl, attemptedAt, ...outcome },
    automatic: automatic && !options.retry,
  });
  const nextRetryAt = automatic ? await afterAutomaticAttempt(db, event, attempt.ok, options.now ?? new Date()) : null;
  return { status: 'sent', attempt, nextRetryAt };
}
