// GET /merchants/invoices/{id} (extension, docs/api.md#invoices), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { idPattern } from '@/lib/ids';
import { invoiceSchema } from '@/lib/invoices/schemas';
import { SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS, invoiceExample } from '@/lib/openapi/examples';

export const GET = operation({
  method: 'GET',
  path: '/merchants/invoices/{id}',
  operationId: 'getInvoice',
  summary: 'Show an electronic invoice',
  tag: 'Invoices',
  auth: 'merchant',
  limit: 'merchant',
  description: `API version 2026-11-28. One invoice or credit note (docs/einvoicing.md). Another account's is a \`403\`.\n\n${SHARED_LIMIT}`,
  params: { id: { description: 'The invoice id (inv_…). A malformed id is answered 404.', pattern: idPattern('inv'), example: IDS.invoice } },
  replies: { 200: { description: 'The invoice', body: { schema: invoiceSchema, example: invoiceExample } } },
  errors: ['unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_error'],
  sample: { path: `/merchants/invoices/${IDS.invoice}` },
});
