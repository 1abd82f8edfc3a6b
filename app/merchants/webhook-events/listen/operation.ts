// GET /merchants/webhook-events/listen (extension), declared for its route and the OpenAPI document:
// the newest events for `npm run webhooks:listen`, which asks once a second. Its own rate-limit
// bucket, so a developer's listener never uses up the calls of the merchant's own backend.
import { operation } from '@/lib/api/operation';
import { LIMITS } from '@/lib/rate-limit/limits';
import { webhookEventExample } from '@/lib/openapi/examples';
import { listEventsQuerySchema, webhookEventPageSchema } from '@/lib/webhooks/schemas';

export const GET = operation({
  method: 'GET',
  path: '/merchants/webhook-events/listen',
  operationId: 'listenWebhookEvents',
  summary: 'List webhook events for a local listener',
  tag: 'Webhooks',
  auth: 'merchant',
  limit: 'webhook-listen',
  description: [
    'The same page as `GET /merchants/webhook-events`, for `npm run webhooks:listen` (docs/webhooks.md#on-your-laptop), which polls it once a second to forward new events to a URL on your machine.',
    '',
    `Rate limit: ${LIMITS['webhook-listen']} requests a minute per api_key, in a bucket of its own: polling here never takes from the ${LIMITS.merchant} a minute your backend shares among the other merchant endpoints.`,
  ].join('\n'),
  query: listEventsQuerySchema,
  replies: {
    200: { description: 'A page of events', body: { schema: webhookEventPageSchema, example: { data: [webhookEventExample], nextCursor: null } } },
  },
  errors: ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_error'],
  sample: { path: '/merchants/webhook-events/listen?limit=100' },
});
