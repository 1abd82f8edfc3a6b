// POST /merchants/subscription-plans/{id}/cancel (docs/billing.md, extension), declared for its route and the OpenAPI document
import { cancelPlanExample, planRecordExample } from '@/lib/openapi/examples';
import { cancelPlanBodySchema } from '@/lib/plans/schemas';
import { planChange } from '../plan-change';

export const POST = planChange({
  verb: 'cancel',
  operationId: 'cancelSubscriptionPlan',
  summary: 'Cancel a plan',
  description:
    'PENDING_ACTIVATION, ACTIVE or PAUSED → CANCELLED, for good: the link no longer takes payments and no renewal follows. An optional `reason` is kept for your records. A plan already CANCELLED or COMPLETED is a `409 conflict`. ' +
    'ServicePay cancels a plan itself when a renewal and its three retries (1, 3 and 5 days after the due date) all fail.',
  conflict: 'This plan cannot be cancelled: the plan is CANCELLED',
  example: { ...planRecordExample, status: 'CANCELLED', nextChargeDate: null },
  body: { schema: cancelPlanBodySchema, example: cancelPlanExample },
});
