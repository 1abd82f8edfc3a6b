// PATCH /admin/merchants/{id} (docs/operations.md#operator-api), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { merchantSchema, updateMerchantBodySchema } from '@/lib/merchants/schemas';
import { IDS, merchantExample, updateMerchantExample } from '@/lib/openapi/examples';
import { MERCHANT_FIELDS, OPERATOR_ERROR_EXAMPLES, OPERATOR_ERRORS } from '@/lib/openapi/operator';
import { idPattern } from '@/lib/ids';

export const PATCH = operation({
  method: 'PATCH',
  path: '/admin/merchants/{id}',
  operationId: 'updateMerchant',
  summary: 'Change a merchant',
  tag: 'Operators',
  auth: 'operator',
  description: `Changes the fields sent, at least one. \`webhookUrl: null\` removes the URL (events are then recorded but not sent). An \`INACTIVE\` merchant's API calls are refused with 401.\n\n${MERCHANT_FIELDS}`,
  params: { id: { description: 'The merchantId. A malformed id is answered 404.', pattern: idPattern('mch'), example: IDS.merchant } },
  body: { schema: updateMerchantBodySchema, required: true, example: updateMerchantExample },
  replies: { 200: { description: 'The merchant after the change', body: { schema: merchantSchema, example: merchantExample } } },
  errors: OPERATOR_ERRORS,
  errorExamples: OPERATOR_ERROR_EXAMPLES,
  sample: { path: `/admin/merchants/${IDS.merchant}`, body: updateMerchantExample },
});
