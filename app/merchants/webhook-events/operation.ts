// GET /merchants/webhook-events (extension), declared for its route and the OpenAPI document:
// the merchant's record of its webhooks, every event with every attempt.
import { operation } from '@/lib/api/operation';
import { SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS, webhookEventExample } from '@/lib/openapi/examples';
import { listEventsQuerySchema, webhookEventPage20261126Schema, webhookEventPageSchema } from '@/lib/webhooks/schemas';

export const GET = operation({
  method: 'GET',
  path: '/merchants/webhook-events',
  operationId: 'listWebhookEvents',
  summary: 'List webhook events and their delivery attempts',
  tag: 'Webhooks',
  auth: 'merchant',
  limit: 'merchant',
  description: [
    'Every event we recorded for your account, newest first, each with the exact body we sign and send and every delivery attempt (time, status code, latency, error, first 2 KiB of your reply). ' +
      'An event recorded while no webhook URL was configured has no attempts. `nextRetryAt` says when the next automatic retry of a failed delivery is due, or null (API version 2026-11-28 on).',
    '',
    'Pages hold `limit` events; pass `nextCursor` as `cursor` for the next one. A `subscriptionPlanId` of another account is a `403`.',
    '',
    SHARED_LIMIT,
  ].join('\n'),
  query: listEventsQuerySchema,
  replies: {
    200: {
      description: 'A page of events',
      body: { schema: webhookEventPageSchema, before: { '2026-11-26': webhookEventPage20261126Schema }, example: { data: [webhookEventExample], nextCursor: null } },
    },
  },
  errors: ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_error'],
  sample: { path: `/merchants/webhook-events?subscriptionPlanId=${IDS.plan}` },
});
