// What pause, resume and cancel declare alike (docs/billing.md, extensions): POST on the plan, an
// optional body, the plan record after the change, and the errors of a change.
import type { z } from 'zod';
import type { ApiVersion } from '@/lib/api-versions';
import { type Operation, operation } from '@/lib/api/operation';
import { CHANGE_ERRORS, planIdParam, SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS } from '@/lib/openapi/examples';
import { emptyBodySchema, PLAN_RECORD_BEFORE, planRecordSchema } from '@/lib/plans/schemas';

interface PlanChange<S extends z.ZodType> {
  verb: 'pause' | 'resume' | 'cancel';
  operationId: string;
  summary: string;
  description: string;
  /** The message of the 409 example. */
  conflict: string;
  example: object;
  body?: { schema: S; example: object; before?: Partial<Record<ApiVersion, z.ZodType>> };
}

export function planChange<S extends z.ZodType = typeof emptyBodySchema>(change: PlanChange<S>) {
  return operation({
    method: 'POST',
    path: `/merchants/subscription-plans/{id}/${change.verb}`,
    operationId: change.operationId,
    summary: change.summary,
    tag: 'Subscription plans',
    auth: 'merchant',
    limit: 'merchant',
    description: `${change.description}\n\nNo body is needed (an empty body or \`{}\`). Beyond the contract of API version 2026-11-20 (docs/api.md#versioning).\n\n${SHARED_LIMIT}`,
    params: { id: planIdParam },
    body: { schema: (change.body?.schema ?? emptyBodySchema) as S, required: false, ...(change.body ? { example: change.body.example, ...(change.body.before ? { before: change.body.before } : {}) } : {}) },
    replies: { 200: { description: 'The plan record after the change', body: { schema: planRecordSchema, before: PLAN_RECORD_BEFORE, example: change.example } } },
    errors: CHANGE_ERRORS,
    errorExamples: { conflict: { message: change.conflict } },
    sample: { path: `/merchants/subscription-plans/${IDS.plan}/${change.verb}`, body: change.body?.example },
  } satisfies Operation);
}
