import { z } from 'zod';
import type { InvoiceRow } from '@/db/queries/invoices';
import { INVOICE_STATUSES, invoiceSchema, type InvoiceView } from '@/lib/webhooks/invoice-view';
import { cursorParam, pageSchema } from '@/lib/api/pages';

// The merchant API's view of its electronic invoices (docs/api.md#invoices), from
// API version 2026-11-28: the replies are built by parsing through these, and the OpenAPI document
// publishes them.

const MAX_INVOICES_PAGE = 100;

export const listInvoicesQuerySchema = z.object({
  subscriptionPlanId: z.string().optional().describe('Only the invoices of this plan (sub_…)'),
  status: z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(', ')}` }).optional().describe('Only the documents in this state'),
  cursor: cursorParam('inv'),
  limit: z.coerce.number().int().min(1).max(MAX_INVOICES_PAGE).default(20).describe(`Documents per page, 1 to ${MAX_INVOICES_PAGE}`),
});

export const invoicePageSchema = pageSchema(invoiceSchema, { id: 'InvoicePage', order: 'Newest first' });

export { invoiceSchema, type InvoiceView };

export function invoiceView(row: InvoiceRow): InvoiceView {
  return invoiceSchema.parse({
    id: row.id,
    kind: row.kind,
    subscriptionTransactionId: row.transactionId,
    invoiceId: row.invoiceId,
    status: row.status,
    number: row.number,
    cufe: row.cufe,
    qrUrl: row.qrUrl,
    total: row.total,
    iva: row.ivaAmount,
    period: row.periodStart && row.periodEnd ? { start: row.periodStart, end: row.periodEnd } : null,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    errors: row.errors,
  });
}

