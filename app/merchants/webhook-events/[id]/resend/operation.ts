// POST /merchants/webhook-events/{id}/resend (extension, docs/webhooks.md#delivery, docs/billing.md), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS } from '@/lib/openapi/examples';
import { resendReplySchema } from '@/lib/webhooks/schemas';
import { idPattern } from '@/lib/ids';

export const POST = operation({
  method: 'POST',
  path: '/merchants/webhook-events/{id}/resend',
  operationId: 'resendWebhookEvent',
  summary: 'Send a webhook event again',
  tag: 'Webhooks',
  auth: 'merchant',
  limit: 'merchant',
  description: [
    'Queues one more delivery of the event to your current webhook URL: the same body bytes and the same `X-Webhook-Id`, signed with your current Webhook Secret. ' +
      'The attempt joins the event’s list. No body is needed. With no webhook URL configured the reply is `409 conflict`.',
    '',
    SHARED_LIMIT,
  ].join('\n'),
  params: { id: { description: 'The event id (evt_…). A malformed id is answered 404.', pattern: idPattern('evt'), example: IDS.event } },
  replies: { 202: { description: 'Queued', body: { schema: resendReplySchema, example: { id: IDS.event, status: 'queued' } } } },
  errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'internal_error'],
  sample: { path: `/merchants/webhook-events/${IDS.event}/resend` },
});
