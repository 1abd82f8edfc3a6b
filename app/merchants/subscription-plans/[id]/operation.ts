// GET and PATCH /merchants/subscription-plans/{id} (docs/api.md#plan-record, docs/billing.md#price-changes), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { CHANGE_ERRORS, PLAN_ERRORS, planIdParam, SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS, planRecordExample } from '@/lib/openapi/examples';
import { PLAN_RECORD_BEFORE, planChangeBodySchema, planRecordSchema, priceChangeBodySchema } from '@/lib/plans/schemas';

export const GET = operation({
  method: 'GET',
  path: '/merchants/subscription-plans/{id}',
  operationId: 'getSubscriptionPlan',
  summary: 'Get a plan record',
  tag: 'Subscription plans',
  auth: 'merchant',
  limit: 'merchant',
  description:
    'The whole plan: amount, modality and billing interval, status, next charge, and the customer it was created for. ' +
    `\`userId\` is our customer id, one per e-mail address within your account.\n\n${SHARED_LIMIT}`,
  params: { id: planIdParam },
  replies: { 200: { description: 'The plan record', body: { schema: planRecordSchema, before: PLAN_RECORD_BEFORE, example: planRecordExample } } },
  errors: PLAN_ERRORS,
  sample: { path: `/merchants/subscription-plans/${IDS.plan}` },
});

export const PATCH = operation({
  method: 'PATCH',
  path: '/merchants/subscription-plans/{id}',
  operationId: 'changeSubscriptionPlanPrice',
  summary: "Change a plan's price",
  tag: 'Subscription plans',
  auth: 'merchant',
  limit: 'merchant',
  description:
    'Extension (docs/billing.md#price-changes). `effective: "next_charge"` (default) charges the new `amount` from the next period not yet due ' +
    '(a plan never charged takes it at once); the customer is e-mailed the new amount and date at once. `effective: "now"` raises the price of an ACTIVE plan at once: ' +
    'the difference for the rest of the current period is charged now (a transaction of kind PRORATION with its charge webhook; under $ 1 it is not charged). ' +
    'If that charge is declined or fails the price does not change and the reply is a `409`. A lower amount with `now`, `now` on a plan not ACTIVE, ' +
    'and any change to a CANCELLED or COMPLETED plan are a `400` naming the field. Merchants who chose it receive `subscription.updated`. ' +
    'From API version 2026-11-28, `{ "at": null }` (sent alone) undoes a cancellation at the end of the period (`409` once the plan is CANCELLED).' +
    `\n\n${SHARED_LIMIT}`,
  params: { id: planIdParam },
  body: { schema: planChangeBodySchema, before: { '2026-11-26': priceChangeBodySchema }, required: true, example: { amount: 3_490_000, effective: 'next_charge' } },
  replies: { 200: { description: 'The plan record after the change (its amount changes when the change applies)', body: { schema: planRecordSchema, before: PLAN_RECORD_BEFORE, example: planRecordExample } } },
  errors: CHANGE_ERRORS,
  sample: { path: `/merchants/subscription-plans/${IDS.plan}`, body: { amount: 3_490_000, effective: 'next_charge' } },
});
