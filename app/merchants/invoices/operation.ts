// GET /merchants/invoices (extension, docs/api.md#invoices), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { invoicePageSchema, listInvoicesQuerySchema } from '@/lib/invoices/schemas';
import { SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS, invoiceExample } from '@/lib/openapi/examples';

export const GET = operation({
  method: 'GET',
  path: '/merchants/invoices',
  operationId: 'listInvoices',
  summary: 'List electronic invoices',
  tag: 'Invoices',
  auth: 'merchant',
  limit: 'merchant',
  description: [
    'API version 2026-11-28. With electronic invoicing on (docs/einvoicing.md), every approved charge gets an invoice sent to DIAN through your provider, and a voided one a credit note: ' +
      'this lists them, newest first, with their state, number, CUFE (or CUDE), DIAN\'s QR link, the amounts in cents and DIAN\'s reasons for a rejection.',
    '',
    'Pages hold `limit` documents; pass `nextCursor` as `cursor` for the next one. A `subscriptionPlanId` of another account is a `403`.',
    '',
    SHARED_LIMIT,
  ].join('\n'),
  query: listInvoicesQuerySchema,
  replies: { 200: { description: 'A page of invoices and credit notes', body: { schema: invoicePageSchema, example: { data: [invoiceExample], nextCursor: null } } } },
  errors: ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_error'],
  sample: { path: `/merchants/invoices?subscriptionPlanId=${IDS.plan}` },
});
