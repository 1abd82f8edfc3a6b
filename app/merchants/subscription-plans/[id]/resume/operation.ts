// POST /merchants/subscription-plans/{id}/resume (docs/billing.md, extension), declared for its route and the OpenAPI document
import { planRecordExample } from '@/lib/openapi/examples';
import { planChange } from '../plan-change';

export const POST = planChange({
  verb: 'resume',
  operationId: 'resumeSubscriptionPlan',
  summary: 'Resume a plan',
  description:
    "PAUSED → ACTIVE. The next charge falls on the plan's billing day (the day of the month of its first payment, clamped to short months) after today: the paused months are never charged. Any other status is a `409 conflict`.",
  conflict: 'Only a PAUSED plan can be resumed: the plan is ACTIVE',
  example: planRecordExample,
});
