// GET /merchants/subscription-plans/{id} (docs/api.md#plan-record, docs/api.md#plan-status), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { PLAN_ERRORS, planIdParam, SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS, planRecordExample } from '@/lib/openapi/examples';
import { planRecord20261120Schema, planRecordSchema } from '@/lib/plans/schemas';

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
  replies: { 200: { description: 'The plan record', body: { schema: planRecordSchema, before: { '2026-11-20': planRecord20261120Schema }, example: planRecordExample } } },
  errors: PLAN_ERRORS,
  sample: { path: `/merchants/subscription-plans/${IDS.plan}` },
});
