import { LIMITS } from '@/lib/rate-limit/limits';
import { listEventsQuerySchema, resendReplySchema, webhookEventPageSchema } from '@/lib/webhooks/schemas';
import { errorReplies, replyHeaders } from './components';
import { curlSample } from './curl';
import { IDS, webhookExample } from './examples';
import type { PathItems, SchemaComponents } from './json-schema';

// The merchant's record of its webhooks (extension): every event with every attempt, and resend.

const MERCHANT = [{ merchantKey: [] }];
const SHARED_LIMIT = `Rate limit: ${LIMITS.merchant} requests a minute per api_key, shared with the other merchant endpoints except link creation and plan status.`;

const eventExample = {
  id: IDS.event,
  event: 'subscription.charge.approved',
  subscriptionPlanId: IDS.plan,
  subscriptionTransactionId: IDS.transaction,
  createdAt: '2026-11-21T15:06:43.020Z',
  body: JSON.stringify(webhookExample('subscription.charge.approved', 'APPROVED')),
  attempts: [
    {
      attemptedAt: '2026-11-21T15:06:43.031Z',
      trigger: 'automatic',
      url: 'https://shop.example.com/webhooks/servicepay',
      ok: true,
      statusCode: 200,
      latencyMs: 182,
      error: null,
      responseExcerpt: 'ok',
    },
  ],
};

export function webhookEventPaths(components: SchemaComponents, appUrl: string): PathItems {
  const query = components.schema(listEventsQuerySchema, 'input') as { properties: Record<string, object> };
  const parameter = (name: 'subscriptionPlanId' | 'cursor' | 'limit') => ({ name, in: 'query', required: false, schema: query.properties[name] });
  return {
    '/merchants/webhook-events': {
      get: {
        operationId: 'listWebhookEvents',
        summary: 'List webhook events and their delivery attempts',
        tags: ['Webhooks'],
        security: MERCHANT,
        description: [
          'Every event we recorded for your account, newest first, each with the exact body we sign and send and every delivery attempt (time, status code, latency, error, first 2 KiB of your reply). ' +
            'An event recorded while no webhook URL was configured has no attempts.',
          '',
          'Pages hold `limit` events; pass `nextCursor` as `cursor` for the next one. A `subscriptionPlanId` of another account is a `403`.',
          '',
          SHARED_LIMIT,
        ].join('\n'),
        parameters: [parameter('subscriptionPlanId'), parameter('cursor'), parameter('limit')],
        responses: {
          '200': {
            description: 'A page of events',
            headers: replyHeaders(true),
            content: {
              'application/json': { schema: components.schema(webhookEventPageSchema, 'output'), example: { data: [eventExample], nextCursor: null } },
            },
          },
          ...errorReplies(['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_error'], { rateLimited: true }),
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'GET', path: `/merchants/webhook-events?subscriptionPlanId=${IDS.plan}`, auth: 'merchant' })],
      },
    },
    '/merchants/webhook-events/{id}/resend': {
      post: {
        operationId: 'resendWebhookEvent',
        summary: 'Send a webhook event again',
        tags: ['Webhooks'],
        security: MERCHANT,
        description: [
          'Queues one more delivery of the event to your current webhook URL: the same body bytes and the same `X-Webhook-Id`, signed with your current Webhook Secret. ' +
            'The attempt joins the event’s list. No body is needed. With no webhook URL configured the reply is `409 conflict`.',
          '',
          SHARED_LIMIT,
        ].join('\n'),
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The event id (evt_…). A malformed id is answered 404.',
            schema: { type: 'string', pattern: '^evt_[0-9A-Za-z]{24}$' },
            example: IDS.event,
          },
        ],
        responses: {
          '202': {
            description: 'Queued',
            headers: replyHeaders(true),
            content: { 'application/json': { schema: components.schema(resendReplySchema, 'output'), example: { id: IDS.event, status: 'queued' } } },
          },
          ...errorReplies(['unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'internal_error'], { rateLimited: true }),
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'POST', path: `/merchants/webhook-events/${IDS.event}/resend`, auth: 'merchant' })],
      },
    },
  };
}
