// GET /merchants/plans/{subscriptionPlanId}/status (docs/api.md#plan-status), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { IDS, planStatusExamples } from '@/lib/openapi/examples';
import { PLAN_ERRORS, planIdParam } from '@/lib/openapi/components';
import { PLAN_STATUS_BEFORE, planStatusSchema } from '@/lib/plans/schemas';
import { LIMITS } from '@/lib/rate-limit/limits';

export const GET = operation({
  method: 'GET',
  path: '/merchants/plans/{subscriptionPlanId}/status',
  operationId: 'getPlanStatus',
  summary: 'Get the status of a plan',
  tag: 'Subscription plans',
  auth: 'merchant',
  limit: 'plan-status',
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
  params: { subscriptionPlanId: planIdParam },
  replies: { 200: { description: 'The plan status', body: { schema: planStatusSchema, before: PLAN_STATUS_BEFORE, examples: planStatusExamples } } },
  errors: PLAN_ERRORS,
  sample: { path: `/merchants/plans/${IDS.plan}/status` },
});
