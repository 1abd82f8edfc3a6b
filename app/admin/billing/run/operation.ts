// POST /admin/billing/run: the test clock (docs/billing.md, docs/operations.md#operator-api, extension), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { billingRunBodySchema, sweepSummarySchema } from '@/lib/billing/schemas';
import { env } from '@/lib/env';
import { billingRunExample, sweepSummaryExample } from '@/lib/openapi/examples';
import { OPERATOR_ERROR_EXAMPLES, OPERATOR_ERRORS } from '@/lib/openapi/operator';

export const POST = operation({
  method: 'POST',
  path: '/admin/billing/run',
  operationId: 'runBillingSweep',
  summary: 'Run the renewal sweep at a given time (test clock)',
  tag: 'Operators',
  auth: 'operator',
  description:
    'Runs the renewal sweep as if it were `now`: every ACTIVE plan whose next charge (or retry) is due by then is charged once, with its transaction and webhook, exactly as the scheduled sweep does; a plan charged this way moves on from that time. ' +
    'One attempt per plan per call: to walk through retries (1, 3 and 5 days after the due date), call it once per day. Expired idempotency records are deleted too. ' +
    'First, the settler runs as of `now`: every PENDING charge due for a check is asked about, and one the processor never received becomes ERROR.\n\n' +
    'For tests and sandbox deployments: in production it answers 404 unless `SANDBOX_DEPLOYMENT=1`. Answers 404 while the deployment has no ADMIN_API_TOKEN. Beyond the contract of API version 2026-11-20 (docs/api.md#versioning).',
  // As if it did not exist in production, like the operator API without its token.
  unavailable: () =>
    env().NODE_ENV === 'production' &&
    !env().SANDBOX_DEPLOYMENT &&
    'The test clock exists only outside production or in a sandbox deployment (SANDBOX_DEPLOYMENT=1)',
  body: { schema: billingRunBodySchema, required: true, example: billingRunExample },
  replies: { 200: { description: 'What the sweep did', body: { schema: sweepSummarySchema, example: sweepSummaryExample } } },
  errors: OPERATOR_ERRORS,
  errorExamples: OPERATOR_ERROR_EXAMPLES,
  sample: { path: '/admin/billing/run', body: billingRunExample },
});
