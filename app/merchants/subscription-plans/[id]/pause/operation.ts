// POST /merchants/subscription-plans/{id}/pause (docs/billing.md, extension), declared for its route and the OpenAPI document
import { pausedPlanExample } from '@/lib/openapi/examples';
import { emptyBodySchema, pausePlanBodySchema } from '@/lib/plans/schemas';
import { planChange } from '../plan-change';

export const POST = planChange({
  verb: 'pause',
  operationId: 'pauseSubscriptionPlan',
  summary: 'Pause a plan',
  description:
    'ACTIVE → PAUSED. No renewal is attempted while the plan is paused, and `nextChargeDate` reads `null`. Any other status is a `409 conflict`. ' +
    'From API version 2026-11-28, `resumesAt` (ISO 8601, after now and within a year) resumes the plan on its own then, on its schedule (docs/billing.md#pause-until-a-date); the plan record shows it while paused. Out of range, a `400` naming `resumesAt`.',
  conflict: 'Only an ACTIVE plan can be paused: the plan is CANCELLED',
  example: pausedPlanExample,
  body: { schema: pausePlanBodySchema, before: { '2026-11-26': emptyBodySchema }, example: { resumesAt: '2027-01-15' } },
});
