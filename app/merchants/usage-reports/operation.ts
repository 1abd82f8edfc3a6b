// POST /merchants/usage-reports (docs/billing.md#many-reports-in-one-request), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { IDS } from '@/lib/openapi/examples';
import { MAX_USAGE_BATCH, usageBatchBodySchema, usageBatchSchema } from '@/lib/plans/schemas';
import { LIMITS } from '@/lib/rate-limit/limits';

const example = {
  reports: [
    { subscriptionPlanId: IDS.plan, quantity: 130, idempotencyKey: 'usage-2026-11-28-0001' },
    { subscriptionPlanId: IDS.plan, quantity: 12, timestamp: '2026-11-28T15:04:05Z', idempotencyKey: 'usage-2026-11-28-0002' },
  ],
};

export const POST = operation({
  method: 'POST',
  path: '/merchants/usage-reports',
  operationId: 'reportUsageBatch',
  summary: 'Report metered usage in a batch',
  tag: 'Subscription plans',
  auth: 'merchant',
  limit: 'usage',
  description:
    `Extension, API version 2026-11-28 (docs/billing.md#many-reports-in-one-request). Records 1 to ${MAX_USAGE_BATCH} usage reports of one or many of your metered plans in one request, each as \`POST /merchants/subscription-plans/{id}/usage\` would: idempotent by plan and \`idempotencyKey\`. ` +
    'The batch is recorded whole or not at all: the first report refused (an unknown plan `404`, another merchant\'s `403`, a plan not metered `400`, not running `409`, a key sent before with another quantity `409`) is named in the error and nothing is counted; fix or drop it and send the batch again, since the keys make that safe. ' +
    `\`201\` when at least one report is new, \`200\` when every key was recorded before. Rate limit: each report counts toward the ${LIMITS.usage} reports a minute per api_key.`,
  body: { schema: usageBatchBodySchema, required: true, example },
  replies: {
    201: { description: 'The reports, at least one of them recorded now', body: { schema: usageBatchSchema } },
    200: { description: 'The reports, every one recorded before with its key', body: { schema: usageBatchSchema } },
  },
  errors: ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
  sample: { path: '/merchants/usage-reports', body: example },
});
