import { voidedTransactionSchema } from '@/lib/billing/schemas';
import {
  cancelPlanBodySchema,
  createLinkBodySchema,
  emptyBodySchema,
  idempotencyKeySchema,
  linkSchema,
  planRecordSchema,
  planStatusSchema,
} from '@/lib/plans/schemas';
import type { z } from 'zod';
import { LIMITS } from '@/lib/rate-limit/limits';
import { errorReplies, replyHeaders } from './components';
import { curlSample } from './curl';
import {
  cancelPlanExample,
  createLinkExamples,
  IDS,
  pausedPlanExample,
  paymentLinkExample,
  planRecordExample,
  planStatusExamples,
  voidedTransactionExample,
} from './examples';
import type { PathItems, SchemaComponents } from './json-schema';

// The merchant API of SPEC 4.1–4.3, documented from the schemas its handlers parse and reply with.

export interface MerchantPathsOptions {
  appUrl: string;
  checkoutTokenTtlSeconds: number;
}

const MERCHANT = [{ merchantKey: [] }];

function duration(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

const planIdParameter = (name: string) => ({
  name,
  in: 'path',
  required: true,
  description: 'The subscriptionPlanId returned at link creation. A malformed id is answered 404.',
  schema: { type: 'string', pattern: '^sub_[0-9A-Za-z]{24}$' },
  example: IDS.plan,
});

const planErrors = errorReplies(['unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_error'], { rateLimited: true });

const SHARED_LIMIT = `Rate limit: ${LIMITS.merchant} requests a minute per api_key, shared with the other merchant endpoints except link creation and plan status.`;

/** The errors of an extension endpoint that changes a plan or a transaction (DECISIONS 11). */
const changeErrors = (conflict: string) =>
  errorReplies(
    ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
    { rateLimited: true, examples: { conflict: { message: conflict } } },
  );

interface LifecycleOptions {
  operationId: string;
  summary: string;
  description: string;
  conflict: string;
  example: object;
  body?: { schema: z.ZodType; example: object };
}

export function merchantPaths(components: SchemaComponents, options: MerchantPathsOptions): PathItems {
  const { appUrl } = options;
  const optionalBody = (body: LifecycleOptions['body']) => ({
    required: false,
    content: {
      'application/json': {
        schema: components.schema(body?.schema ?? emptyBodySchema, 'input'),
        ...(body ? { example: body.example } : {}),
      },
    },
  });
  const lifecycle = (verb: string, o: LifecycleOptions) => ({
    post: {
      operationId: o.operationId,
      summary: o.summary,
      tags: ['Subscription plans'],
      security: MERCHANT,
      description: `${o.description}\n\nNo body is needed (an empty body or \`{}\`). Extension of SPEC.\n\n${SHARED_LIMIT}`,
      parameters: [planIdParameter('id')],
      requestBody: optionalBody(o.body),
      responses: {
        '200': {
          description: 'The plan record after the change',
          headers: replyHeaders(true),
          content: { 'application/json': { schema: components.schema(planRecordSchema, 'output'), example: o.example } },
        },
        ...changeErrors(o.conflict),
      },
      'x-codeSamples': [
        curlSample(appUrl, { method: 'POST', path: `/merchants/subscription-plans/${IDS.plan}/${verb}`, auth: 'merchant', body: o.body?.example }),
      ],
    },
  });
  return {
    '/merchants/subscription-link': {
      post: {
        operationId: 'createSubscriptionLink',
        summary: 'Create a payment link',
        tags: ['Payment links'],
        security: MERCHANT,
        description: [
          'Creates a subscription plan in `PENDING_ACTIVATION` and the checkout link that pays it. Send the customer to `url`, or open the embedded checkout with `token` (`ServicePay.open({ token })`). ' +
            'Store `subscriptionPlanId`: plan queries and webhooks use it.',
          '',
          `The link is valid for ${duration(options.checkoutTokenTtlSeconds)} (until \`expiresAt\`).`,
          'Only one open plan (`PENDING_ACTIVATION`, `ACTIVE` or `PAUSED`) may carry an `externalReference`: another link for it is a `409 conflict`.',
          '',
          '**Safe retries.** Send an `Idempotency-Key` header. Within 24 hours the same key with the same body gets the first reply again (same token, same plan) with `Idempotent-Replayed: true`; ' +
            'the same key with another body is a `409 idempotency_key_reused`.',
          '',
          `Rate limit: ${LIMITS['create-link']} requests a minute per api_key.`,
        ].join('\n'),
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'Any string you choose for this creation, such as your order id with an attempt number',
            schema: components.schema(idempotencyKeySchema, 'input'),
            example: 'order-1042-attempt-1',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: components.schema(createLinkBodySchema, 'input'), examples: createLinkExamples },
          },
        },
        responses: {
          '200': {
            description: 'The checkout link and the plan it pays',
            headers: replyHeaders(true, 'Idempotent-Replayed'),
            content: { 'application/json': { schema: components.schema(linkSchema, 'output'), example: paymentLinkExample(appUrl) } },
          },
          ...errorReplies(
            [
              'invalid_request',
              'unauthorized',
              'conflict',
              'idempotency_key_reused',
              'payload_too_large',
              'unsupported_media_type',
              'rate_limited',
              'internal_error',
            ],
            { rateLimited: true },
          ),
        },
        'x-codeSamples': [
          curlSample(appUrl, {
            method: 'POST',
            path: '/merchants/subscription-link',
            auth: 'merchant',
            headers: ['Idempotency-Key: order-1042-attempt-1'],
            body: createLinkExamples.recurring.value,
          }),
        ],
      },
    },
    '/merchants/plans/{subscriptionPlanId}/status': {
      get: {
        operationId: 'getPlanStatus',
        summary: 'Get the status of a plan',
        tags: ['Subscription plans'],
        security: MERCHANT,
        description: [
          'The plan and its most recent transaction. `lastTransaction` is absent until the customer starts a payment; `plan.nextChargeDate` is `null` while no charge is scheduled (`PAUSED`, `CANCELLED`, `COMPLETED`).',
          '',
          'Webhooks tell you first; to poll instead, ask at most 12 times, 5 seconds apart:',
          '- `lastTransaction.status` is `APPROVED`: paid. `DECLINED`: declined, tell the customer.',
          '- `plan.status` is `PENDING_ACTIVATION` with no `lastTransaction`, or `lastTransaction.status` is `PENDING`: wait and ask again.',
          '- Anything else: stop. After the last attempt: timed out.',
          '',
          `Rate limit: ${LIMITS['plan-status']} requests a minute per api_key.`,
        ].join('\n'),
        parameters: [planIdParameter('subscriptionPlanId')],
        responses: {
          '200': {
            description: 'The plan status',
            headers: replyHeaders(true),
            content: { 'application/json': { schema: components.schema(planStatusSchema, 'output'), examples: planStatusExamples } },
          },
          ...planErrors,
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'GET', path: `/merchants/plans/${IDS.plan}/status`, auth: 'merchant' })],
      },
    },
    '/merchants/subscription-plans/{id}': {
      get: {
        operationId: 'getSubscriptionPlan',
        summary: 'Get a plan record',
        tags: ['Subscription plans'],
        security: MERCHANT,
        description:
          'The whole plan: amount, modality and billing interval, status, next charge, and the customer it was created for. ' +
          `\`userId\` is our customer id, one per e-mail address within your account.\n\nRate limit: ${LIMITS.merchant} requests a minute per api_key, shared with the other merchant endpoints except link creation and plan status.`,
        parameters: [planIdParameter('id')],
        responses: {
          '200': {
            description: 'The plan record',
            headers: replyHeaders(true),
            content: { 'application/json': { schema: components.schema(planRecordSchema, 'output'), example: planRecordExample } },
          },
          ...planErrors,
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'GET', path: `/merchants/subscription-plans/${IDS.plan}`, auth: 'merchant' })],
      },
    },
    '/merchants/subscription-plans/{id}/pause': lifecycle('pause', {
      operationId: 'pauseSubscriptionPlan',
      summary: 'Pause a plan',
      description: 'ACTIVE → PAUSED. No renewal is attempted while the plan is paused, and `nextChargeDate` reads `null`. Any other status is a `409 conflict`.',
      conflict: 'Only an ACTIVE plan can be paused: the plan is CANCELLED',
      example: pausedPlanExample,
    }),
    '/merchants/subscription-plans/{id}/resume': lifecycle('resume', {
      operationId: 'resumeSubscriptionPlan',
      summary: 'Resume a plan',
      description:
        'PAUSED → ACTIVE. The next charge falls on the plan\'s billing day (the day of the month of its first payment, clamped to short months) after today: the paused months are never charged. Any other status is a `409 conflict`.',
      conflict: 'Only a PAUSED plan can be resumed: the plan is ACTIVE',
      example: planRecordExample,
    }),
    '/merchants/subscription-plans/{id}/cancel': lifecycle('cancel', {
      operationId: 'cancelSubscriptionPlan',
      summary: 'Cancel a plan',
      description:
        'PENDING_ACTIVATION, ACTIVE or PAUSED → CANCELLED, for good: the link no longer takes payments and no renewal follows. An optional `reason` is kept for your records. A plan already CANCELLED or COMPLETED is a `409 conflict`. ' +
        'ServicePay cancels a plan itself when a renewal and its three retries (1, 3 and 5 days after the due date) all fail.',
      conflict: 'This plan cannot be cancelled: the plan is CANCELLED',
      example: { ...planRecordExample, status: 'CANCELLED', nextChargeDate: null },
      body: { schema: cancelPlanBodySchema, example: cancelPlanExample },
    }),
    '/merchants/transactions/{subscriptionTransactionId}/void': {
      post: {
        operationId: 'voidTransaction',
        summary: 'Void a charge',
        tags: ['Transactions'],
        security: MERCHANT,
        description: [
          'APPROVED → VOIDED: the processor voids the charge, then the transaction is recorded as VOIDED and a `subscription.charge.voided` webhook is sent. `chargeDate` stays the original charge\'s time. ' +
            'Any other status (PENDING, DECLINED, ERROR, already VOIDED) is a `409 conflict`. The plan does not change: cancel it too if it should end. Extension of SPEC.',
          '',
          'No body is needed (an empty body or `{}`).',
          '',
          SHARED_LIMIT,
        ].join('\n'),
        parameters: [
          {
            name: 'subscriptionTransactionId',
            in: 'path',
            required: true,
            description: 'Our transaction id (`txn_…`), as in `lastTransaction.subscriptionTransactionId` and webhooks. A malformed id is answered 404.',
            schema: { type: 'string', pattern: '^txn_[0-9A-Za-z]{24}$' },
            example: IDS.transaction,
          },
        ],
        requestBody: optionalBody(undefined),
        responses: {
          '200': {
            description: 'The voided transaction',
            headers: replyHeaders(true),
            content: { 'application/json': { schema: components.schema(voidedTransactionSchema, 'output'), example: voidedTransactionExample } },
          },
          ...changeErrors('Only an APPROVED transaction can be voided; this one is DECLINED'),
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'POST', path: `/merchants/transactions/${IDS.transaction}/void`, auth: 'merchant' })],
      },
    },
  };
}
