import {
  CHARGE_EVENT_TYPES,
  type ChargeEventType,
  LIFECYCLE_EVENT_TYPES,
  LIFECYCLE_EVENTS,
  type LifecycleEventType,
  lifecycleEventIn,
  lifecyclePayloadIn,
  WEBHOOK_EVENTS,
  webhookPayloadIn,
} from '@/lib/webhooks/payload';
import type { z } from 'zod';
import type { ZodOpenApiPathItemObject } from 'zod-openapi';
import type { ApiVersion } from '@/lib/api-versions';
import { IDS, lifecycleExample, webhookExample } from './examples';

// The merchant's webhook receiver (docs/webhooks.md#payload, docs/webhooks.md#receiver, docs/webhooks.md#webhook-settings–5.9, 6; docs/webhooks.md#delivery), described as OpenAPI
// 3.1 `webhooks`: requests this service sends, which the merchant's server answers.

const VERIFY_SAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a Buffer or string), before JSON.parse.
function isFromServicePay(rawBody, signatureHeader, webhookSecret) {
  const expected = Buffer.from(createHmac('sha256', webhookSecret).update(rawBody).digest('hex'));
  const received = Buffer.from(String(signatureHeader ?? ''));
  return expected.length === received.length && timingSafeEqual(expected, received);
}`;

export const WEBHOOKS_DESCRIPTION = [
  'For each final outcome of a charge, ServicePay sends one `POST` to the Webhook URL set in the merchant portal (Settings, API; it must be `https://`). ' +
    'The plan lifecycle events (`subscription.activated`, `.paused`, `.resumed`, `.cancelled`, `.payment_method_updated`) are sent only to merchants who choose them; they are signed and delivered the same way.',
  '',
  '**Verify every request.** `X-Webhook-Signature` is the lowercase hexadecimal HMAC-SHA256 of the raw request body, keyed with your Webhook Secret. ' +
    'Compute it over the body exactly as received (a re-serialized parsed object gives another signature), compare in constant time, and answer `401` when it differs:',
  '',
  '```js',
  VERIFY_SAMPLE,
  '```',
  '',
  '**Answer `200` within 10 seconds**, then do the work. A slower answer, a redirect or any non-2xx status is a failed delivery, and deliveries are **not retried**: ' +
    'poll the plan status when in doubt. `X-Webhook-Id` stays the same for one event, including a manual redelivery, so use it to ignore duplicates.',
].join('\n');

interface Described {
  description: string;
  schema: z.ZodType;
  example: unknown;
}

function chargeEvent(event: ChargeEventType, version: ApiVersion): Described {
  const { status, when } = WEBHOOK_EVENTS[event];
  return {
    description: `${when}. \`data.status\` is \`${status}\`. Sent to your Webhook URL; your server implements this endpoint.`,
    schema: webhookPayloadIn(version),
    example: webhookExample(event, status),
  };
}

function lifecycleEvent(event: LifecycleEventType, version: ApiVersion): Described {
  return {
    description:
      `${LIFECYCLE_EVENTS[event]}. \`data.status\` is the plan status after the change. ` +
      'Sent only once you choose it (portal: Settings, Webhooks; operator API: `webhookEvents`); written in the same database transaction as the change. ' +
      'Your server implements this endpoint.',
    schema: lifecyclePayloadIn(version),
    example: lifecycleExample(event),
  };
}

function webhookOperation(event: string, { description, schema, example }: Described): ZodOpenApiPathItemObject {
  return {
    post: {
      operationId: `webhook.${event}`,
      summary: event,
      description,
      tags: ['Webhooks'],
      security: [],
      parameters: [
        {
          name: 'X-Webhook-Signature',
          in: 'header',
          required: true,
          description: 'Lowercase hex HMAC-SHA256 of the raw body, keyed with your Webhook Secret',
          schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          example: '5d7c1b2f0e4a9c3d8b6f1a2e7c9d0b4f3e6a8c1d2b5f7e9a0c3d6b8f1e4a7c2d',
        },
        {
          name: 'X-Webhook-Id',
          in: 'header',
          required: true,
          description: 'The event id (evt_…), stable across redeliveries: de-duplicate on it',
          schema: { type: 'string' },
          example: IDS.event,
        },
        {
          name: 'User-Agent',
          in: 'header',
          required: true,
          schema: { type: 'string', const: 'ServicePay-Webhooks/1' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema,
            example,
          },
        },
      },
      responses: {
        '200': { description: 'Received. Any 2xx within 10 seconds counts as delivered.' },
        '401': { description: 'The signature does not match: the receiver refuses the body.' },
      },
    },
  };
}

/** The webhooks of the document of `version`, each body in that version's shape. */
export function webhooks(version: ApiVersion): Record<string, ZodOpenApiPathItemObject> {
  return Object.fromEntries([
    ...CHARGE_EVENT_TYPES.map((event) => [event, webhookOperation(event, chargeEvent(event, version))]),
    ...LIFECYCLE_EVENT_TYPES.filter((event) => lifecycleEventIn(event, version)).map((event) => [event, webhookOperation(event, lifecycleEvent(event, version))]),
  ]);
}
