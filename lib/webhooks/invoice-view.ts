import { z } from 'zod';

// An electronic invoice as merchants see it, in the API's replies (docs/api.md#invoices) and in the
// invoice.issued and invoice.rejected events: defined here, beside the webhook body, because both
// the API and the events publish it, and db/schema.ts reads its kinds and states.

export const INVOICE_KINDS = ['INVOICE', 'CREDIT_NOTE'] as const;
/** CANCELLED: the charge was voided before its invoice was issued. */
export const INVOICE_STATUSES = ['PENDING', 'ISSUED', 'REJECTED', 'FAILED', 'CANCELLED'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

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

export type InvoiceView = z.infer<typeof invoiceSchema>;
