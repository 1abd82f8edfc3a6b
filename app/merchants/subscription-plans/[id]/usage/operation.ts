// POST /merchants/subscription-plans/{id}/usage (docs/billing.md#metered-usage), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { planIdParam } from '@/lib/openapi/components';
import { IDS } from '@/lib/openapi/examples';
import { usageReportBodySchema, usageReportSchema } from '@/lib/plans/schemas';
import { LIMITS } from '@/lib/rate-limit/limits';

const example = { quantity: 130, idempotencyKey: 'usage-2026-11-28-0001' };

export const POST = operation({
  method: 'POST',
  path: '/merchants/subscription-plans/{id}/usage',
  operationId: 'reportUsage',
  summary: 'Report metered usage',
  tag: 'Subscription plans',
  auth: 'merchant',
  limit: 'usage',
  description:
    'Extension, API version 2026-11-28 (docs/billing.md#metered-usage). Records units used by a plan created with `plan.usage`; each renewal bills the period\'s units over `includedUnits` in arrears, beside the fixed amount. ' +
    'A report counts once per `idempotencyKey`: the same key again answers `200` with the first report, whatever the concurrency; the same key with another quantity is a `409`. ' +
    'Usage for a period closes when its renewal is charged: a later report falls in the next period. A plan without `usage` (a SINGLE plan among them) is a `400`; a plan not running (pending, cancelled, completed) a `409`. ' +
    `Rate limit: ${LIMITS.usage} reports a minute per api_key.`,
  params: { id: planIdParam },
  body: { schema: usageReportBodySchema, required: true, example },
  replies: {
    201: { description: 'The report, recorded', body: { schema: usageReportSchema } },
    200: { description: 'The report first recorded with this key', body: { schema: usageReportSchema } },
  },
  errors: ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
  sample: { path: `/merchants/subscription-plans/${IDS.plan}/usage`, body: example },
});
