import { z } from 'zod';
import { WEBHOOK_ATTEMPT_TRIGGERS } from '@/db/schema';
import { WEBHOOK_EVENT_TYPES } from './payload';
import { cursorParam, pageSchema } from '@/lib/api/pages';

// The merchant's view of its webhook events: what was sent and what became of each attempt.

const MAX_EVENTS_PAGE = 100;

export const listEventsQuerySchema = z.object({
  subscriptionPlanId: z.string().optional().describe('Only the events of this plan (sub_…)'),
  cursor: cursorParam('evt'),
  limit: z.coerce.number().int().min(1).max(MAX_EVENTS_PAGE).default(20).describe(`Events per page, 1 to ${MAX_EVENTS_PAGE}`),
});

const isoTime = z.iso.datetime({ precision: 3 });

const webhookAttemptSchema = z
  .object({
    attemptedAt: isoTime,
    trigger: z.enum(WEBHOOK_ATTEMPT_TRIGGERS).describe('`automatic` (the one delivery of docs/webhooks.md#events) or `manual` (a resend)'),
    url: z.string().describe('Where it was sent'),
    ok: z.boolean().describe('Whether the receiver answered 2xx'),
    statusCode: z.number().int().nullable().describe('The receiver’s HTTP status; null when no reply came'),
    latencyMs: z.number().int(),
    error: z
      .string()
      .nullable()
      .describe('Why no usable reply came, as `<kind>: <detail>`: timeout, connection_refused, tls_error, dns_error, private_address, redirect_not_followed, network_error'),
    responseExcerpt: z.string().nullable().describe('The first 2 KiB of the reply body'),
  })
  .meta({ id: 'WebhookAttempt' });

const webhookEventRecordSchema = z
  .object({
    id: z.string().describe('evt_…, also sent as X-Webhook-Id'),
    event: z.enum(WEBHOOK_EVENT_TYPES),
    subscriptionPlanId: z.string(),
    subscriptionTransactionId: z.string().nullable().describe('The transaction a charge event (or charge.refund_due) reports; null for a lifecycle event'),
    createdAt: isoTime,
    body: z.string().describe('The exact bytes sent (and signed) on every delivery of this event'),
    attempts: z.array(webhookAttemptSchema).describe('Oldest first; empty when no webhook URL was configured'),
    nextRetryAt: isoTime
      .nullable()
      .describe('When the next automatic retry of a failed delivery is due (merchants with retries on, docs/webhooks.md#retries); null when none is (API version 2026-11-28 on)'),
  })
  .meta({ id: 'WebhookEventRecord' });

export const webhookEventPageSchema = pageSchema(webhookEventRecordSchema, { id: 'WebhookEventPage', order: 'Newest first' });

/** Versions before 2026-11-28: without `nextRetryAt`. */
export const webhookEventPage20261126Schema = z.object({
  data: z.array(webhookEventRecordSchema.omit({ nextRetryAt: true })),
  nextCursor: z.string().nullable(),
});

export const resendReplySchema = z
  .object({ id: z.string(), status: z.literal('queued') })
  .meta({ id: 'WebhookResend' });

export type WebhookEventRecord = z.infer<typeof webhookEventRecordSchema>;
