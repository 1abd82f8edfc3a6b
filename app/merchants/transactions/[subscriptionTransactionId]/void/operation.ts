// POST /merchants/transactions/{subscriptionTransactionId}/void (docs/billing.md, extension), declared for its route and the OpenAPI document
import { voidedTransactionSchema } from '@/lib/settlement/schemas';
import { operation } from '@/lib/api/operation';
import { CHANGE_ERRORS, SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS, voidedTransactionExample } from '@/lib/openapi/examples';
import { emptyBodySchema } from '@/lib/plans/schemas';
import { idPattern } from '@/lib/ids';

export const POST = operation({
  method: 'POST',
  path: '/merchants/transactions/{subscriptionTransactionId}/void',
  operationId: 'voidTransaction',
  summary: 'Void a charge',
  tag: 'Transactions',
  auth: 'merchant',
  limit: 'merchant',
  description: [
    "APPROVED → VOIDED: the processor voids the charge, then the transaction is recorded as VOIDED and a `subscription.charge.voided` webhook is sent. `chargeDate` stays the original charge's time. " +
      'Any other status (PENDING, DECLINED, ERROR, already VOIDED) is a `409 conflict`. The plan does not change: cancel it too if it should end. Beyond the contract of API version 2026-11-20 (docs/api.md#versioning).',
    '',
    'No body is needed (an empty body or `{}`).',
    '',
    SHARED_LIMIT,
  ].join('\n'),
  params: {
    subscriptionTransactionId: {
      description: 'Our transaction id (`txn_…`), as in `lastTransaction.subscriptionTransactionId` and webhooks. A malformed id is answered 404.',
      pattern: idPattern('txn'),
      example: IDS.transaction,
    },
  },
  body: { schema: emptyBodySchema, required: false },
  replies: { 200: { description: 'The voided transaction', body: { schema: voidedTransactionSchema, example: voidedTransactionExample } } },
  errors: CHANGE_ERRORS,
  errorExamples: { conflict: { message: 'Only an APPROVED transaction can be voided; this one is DECLINED' } },
  sample: { path: `/merchants/transactions/${IDS.transaction}/void` },
});
