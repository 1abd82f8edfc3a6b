// POST /merchants/subscription-plans/{id}/cancel (docs/billing.md, extension), declared for its route and the OpenAPI document
import { cancelPlanExample, planRecordExample } from '@/lib/openapi/examples';
import { cancelPlanBody20261126, cancelPlanBodySchema } from '@/lib/plans/schemas';
import { planChange } from '../plan-change';

export const POST = planChange({
  verb: 'cancel',
  operationId: 'cancelSubscriptionPlan',
  summary: 'Cancel a plan',
  description:
    'PENDING_ACTIVATION, ACTIVE or PAUSED → CANCELLED, for good: the link no longer takes payments and no renewal follows. An optional `reason` is kept for your records. A plan already CANCELLED or COMPLETED is a `409 conflict`. ' +
    'ServicePay cancels a plan itself when a renewal and its three retries (1, 3 and 5 days after the due date) all fail. ' +
    'From API version 2026-11-28, `at: "period_end"` cancels an ACTIVE or TRIALING plan at its next charge date instead: it stays as it is until then (`cancelAt`), is charged nothing more, and `subscription.cancelled` is sent then (`subscription.updated` at once); PATCH `{ "at": null }` undoes it until then. Another state, or a plan whose renewal is being retried, is a `409`.',
  conflict: 'This plan cannot be cancelled: the plan is CANCELLED',
  example: { ...planRecordExample, status: 'CANCELLED', nextChargeDate: null },
  body: { schema: cancelPlanBodySchema, before: { '2026-11-26': cancelPlanBody20261126 }, example: cancelPlanExample },
});
