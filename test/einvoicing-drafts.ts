import { creditNoteDraft, finalConsumer, invoiceDraft, type Buyer, type CallerNumbering, type InvoiceDraft } from '../lib/einvoicing/draft';
import { DIAN_TEST_RESOLUTION } from '../lib/einvoicing/dian-test-range';
import type { IvaRate } from '../lib/einvoicing/money';

// The drafts the adapters' tests and contract fixtures share: a monthly plan of 49 900 COP with a
// 20 % coupon, numbered in DIAN's test range when we number, and the credit note that annuls it.
// Test support: the app never imports it.

export const TEST_RESOLUTION = DIAN_TEST_RESOLUTION;

export const COMPANY_BUYER: Buyer = { taxId: { type: 'NIT', number: '900559088', dv: 2 }, legalName: 'Empresa de Pruebas SAS', email: 'facturas@empresa.example' };

export function sampleInvoice(options: { reference?: string; number?: number | null; buyer?: Buyer; iva?: IvaRate; discount?: number; unitPrice?: number } = {}): InvoiceDraft {
  const numbering: CallerNumbering | null = options.number === null ? null : { prefix: 'SETP', number: options.number ?? 990_000_001, resolution: TEST_RESOLUTION };
  return invoiceDraft({
    reference: options.reference ?? 'txn_01JDX7Q2Z3A4B5C6D7E8F9G0H1',
    issuedAt: new Date('2026-11-28T15:00:00Z'),
    period: { start: '2026-11-28', end: '2026-12-27' },
    buyer: options.buyer ?? finalConsumer('ana@example.com'),
    lines: [{ description: 'Plan Pro (mensual)', quantity: 1, unitPrice: options.unitPrice ?? 4_990_000, discount: options.discount ?? 998_000, iva: options.iva ?? 19 }],
    paymentMethod: 'CARD',
    numbering,
  });
}

export function sampleCreditNote(
  invoice: InvoiceDraft,
  issued: { number: string; cufe: string; issueDate: string },
  options: { reference?: string; number?: number | null; issuedAt?: Date } = {},
) {
  return creditNoteDraft({
    reference: options.reference ?? 'cn_01JDX7Q2Z3A4B5C6D7E8F9G0H2',
    issuedAt: options.issuedAt ?? new Date('2026-11-29T14:15:00Z'),
    buyer: invoice.buyer,
    lines: invoice.lines,
    paymentMethod: invoice.paymentMethod,
    concept: '2',
    invoice: { number: issued.number, prefix: 'SETP', cufe: issued.cufe, issueDate: issued.issueDate },
    numbering: options.number === null ? null : { prefix: 'NC', number: options.number ?? 1, resolution: null },
  });
}
