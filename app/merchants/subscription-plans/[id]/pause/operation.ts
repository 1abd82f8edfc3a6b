// POST /merchants/subscription-plans/{id}/pause (docs/billing.md, extension), declared for its route and the OpenAPI document
import { pausedPlanExample } from '@/lib/openapi/examples';
import { planChange } from '../plan-change';

export const POST = planChange({
  verb: 'pause',
  operationId: 'pauseSubscriptionPlan',
  summary: 'Pause a plan',
  description: 'ACTIVE → PAUSED. No renewal is attempted while the plan is paused, and `nextChargeDate` reads `null`. Any other status is a `409 conflict`.',
  conflict: 'Only an ACTIVE plan can be paused: the plan is CANCELLED',
  example: pausedPlanExample,
});
