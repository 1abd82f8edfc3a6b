// POST /merchants/subscription-link (docs/api.md#create-a-payment-link), declared for its route and the OpenAPI document
import { type DocumentSettings, operation } from '@/lib/api/operation';
import { duration } from '@/lib/openapi/components';
import { createLinkExamples, paymentLinkExample } from '@/lib/openapi/examples';
import { createLinkBody20261120, createLinkBody20261126, createLinkBodySchema, idempotencyKeySchema, linkSchema } from '@/lib/plans/schemas';
import { LIMITS } from '@/lib/rate-limit/limits';

export const POST = operation({
  method: 'POST',
  path: '/merchants/subscription-link',
  operationId: 'createSubscriptionLink',
  summary: 'Create a payment link',
  tag: 'Payment links',
  auth: 'merchant',
  limit: 'create-link',
  description: ({ checkoutTokenTtlSeconds }) =>
    [
      'Creates a subscription plan in `PENDING_ACTIVATION` and the checkout link that pays it. Send the customer to `url`, or open the embedded checkout with `token` (`ServicePay.open({ token })`). ' +
        'Store `subscriptionPlanId`: plan queries and webhooks use it.',
      '',
      `The link is valid for ${duration(checkoutTokenTtlSeconds)} (until \`expiresAt\`).`,
      'Only one open plan (`PENDING_ACTIVATION`, `ACTIVE` or `PAUSED`) may carry an `externalReference`: another link for it is a `409 conflict`.',
      '',
      '**Safe retries.** Send an `Idempotency-Key` header. Within 24 hours the same key with the same body gets the first reply again (same token, same plan) with `Idempotent-Replayed: true`; ' +
        'the same key with another body is a `409 idempotency_key_reused`.',
      '',
      `Rate limit: ${LIMITS['create-link']} requests a minute per api_key.`,
    ].join('\n'),
  headers: {
    'Idempotency-Key': {
      schema: idempotencyKeySchema,
      description: 'Any string you choose for this creation, such as your order id with an attempt number',
      example: 'order-1042-attempt-1',
    },
  },
  body: { schema: createLinkBodySchema, before: { '2026-11-20': createLinkBody20261120, '2026-11-26': createLinkBody20261126 }, required: true, examples: createLinkExamples },
  replies: {
    200: {
      description: 'The checkout link and the plan it pays',
      headers: ['Idempotent-Replayed'],
      body: { schema: linkSchema, example: ({ appUrl }: DocumentSettings) => paymentLinkExample(appUrl) },
    },
  },
  errors: ['invalid_request', 'unauthorized', 'conflict', 'idempotency_key_reused', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
  sample: {
    path: '/merchants/subscription-link',
    headers: ['Idempotency-Key: order-1042-attempt-1'],
    body: createLinkExamples.recurring.value,
  },
});
