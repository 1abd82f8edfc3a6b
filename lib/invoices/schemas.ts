import { z } from 'zod';
import { INVOICE_KINDS, INVOICE_STATUSES } from '@/db/schema';
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

const bogotaDay = z.string().describe('A Bogotá calendar date, YYYY-MM-DD');

export const invoiceSchema = z
  .object({
    id: z.string().describe('inv_…'),
    kind: z.enum(INVOICE_KINDS).describe('INVOICE for a charge; CREDIT_NOTE annulling the invoice of a voided charge'),
    subscriptionTransactionId: z.string().describe('The charge it invoices (txn_…)'),
    invoiceId: z.string().nullable().describe('A credit note: the invoice it annuls (inv_…); null for an invoice'),
    status: z
      .enum(INVOICE_STATUSES)
      .describe('PENDING (being issued, or waiting to be retried), ISSUED (validated by DIAN), REJECTED (DIAN refused it: see errors), FAILED (the provider did not answer for 72 h), CANCELLED (its charge was voided before it was issued)'),
    number: z.string().nullable().describe('The number DIAN validated, with its prefix (SETP990000001); null until ISSUED'),
    cufe: z.string().nullable().describe("DIAN's key of the document: an invoice's CUFE, a credit note's CUDE (96 hex characters); null until ISSUED"),
    qrUrl: z.string().nullable().describe("The document's public page at DIAN, the QR code's content; null until ISSUED"),
    total: z.number().int().describe('Cents of COP, IVA included: what was charged'),
    iva: z.number().int().describe('The IVA in the total, cents of COP'),
    period: z.object({ start: bogotaDay, end: bogotaDay }).nullable().describe('The days the charge pays for'),
    issuedAt: z.iso.datetime({ precision: 3 }).nullable().describe('When DIAN validated it; null until ISSUED'),
    errors: z
      .array(z.object({ rule: z.string().describe("DIAN's rule (FAD06, 90…) or the provider's field"), message: z.string() }))
      .describe('Why it was REJECTED; [] otherwise'),
  })
  .meta({ id: 'Invoice', description: 'An electronic invoice or credit note sent to DIAN through the merchant\'s provider (docs/einvoicing.md)' });

export const invoicePageSchema = pageSchema(invoiceSchema, { id: 'InvoicePage', order: 'Newest first' });

export type InvoiceView = z.infer<typeof invoiceSchema>;
