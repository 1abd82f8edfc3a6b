// POST /admin/merchants (docs/operations.md#operator-api), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { createdMerchantSchema, createMerchantBodySchema } from '@/lib/merchants/schemas';
import { createdMerchantExample, createMerchantExample } from '@/lib/openapi/examples';
import { MERCHANT_FIELDS, OPERATOR_ERROR_EXAMPLES, OPERATOR_ERRORS } from '@/lib/openapi/operator';

export const POST = operation({
  method: 'POST',
  path: '/admin/merchants',
  operationId: 'createMerchant',
  summary: 'Create a merchant',
  tag: 'Operators',
  auth: 'operator',
  description: `Creates a merchant with its first API key. When no \`webhookSecret\` is given one is generated. The reply is the only time \`apiSecret\` is shown.\n\n${MERCHANT_FIELDS}\n\nAnswers 404 while the deployment has no ADMIN_API_TOKEN.`,
  body: { schema: createMerchantBodySchema, required: true, example: createMerchantExample },
  replies: { 201: { description: 'The merchant and its credentials', body: { schema: createdMerchantSchema, example: createdMerchantExample } } },
  errors: OPERATOR_ERRORS,
  errorExamples: OPERATOR_ERROR_EXAMPLES,
  sample: { path: '/admin/merchants', body: createMerchantExample },
});
