import { describe, expect, it } from 'vitest';
import { cufe } from './cufe';
import { creditNoteDraft, EInvoiceDraftError, finalConsumer, invoiceDraft, type Buyer, type CallerNumbering } from './draft';
import { TEST_RESOLUTION } from '../../test/einvoicing-drafts';

const RESOLUTION = TEST_RESOLUTION;

const LINE = { description: 'Plan Pro — nov 2026', quantity: 1, unitPrice: 4_990_000, discount: 0, iva: 19 as const };

const base = {
  reference: 'txn_01HXYZ',
  issuedAt: new Date('2026-11-28T15:00:00Z'),
  buyer: finalConsumer('ana@example.com'),
  lines: [LINE],
  paymentMethod: 'CARD' as const,
  period: { start: '2026-11-28', end: '2026-12-27' },
};

const fieldOf = (build: () => unknown) => {
  try {
    build();
  } catch (error) {
    if (error instanceof EInvoiceDraftError) return error.field;
    throw error;
  }
  return null;
};

describe('invoiceDraft', () => {
  it('prices the lines, totals them and writes the Bogotá issue date and time', () => {
    const draft = invoiceDraft(base);
    expect(draft.kind).toBe('INVOICE');
    expect(draft.issue).toEqual({ date: '2026-11-28', time: '10:00:00-05:00' });
    expect(draft.totals).toMatchObject({ lineExtension: 4_193_277, iva: 796_723, payable: 4_990_000 });
    expect(draft.numbering).toBeNull();
  });

  it('gives the inputs of D2\'s CUFE when numbered in the SETP test range', () => {
    const draft = invoiceDraft({ ...base, numbering: { prefix: 'SETP', number: 990_000_001, resolution: RESOLUTION } });
    const key = cufe({
      number: `${draft.numbering!.prefix}${draft.numbering!.number}`,
      issueDate: draft.issue.date,
      issueTime: draft.issue.time,
      lineExtension: draft.totals.lineExtension,
      iva: draft.totals.iva,
      inc: 0,
      ica: 0,
      payable: draft.totals.payable,
      supplierNit: '900373076',
      buyerId: '222222222222',
      technicalKey: RESOLUTION.technicalKey,
      environment: 2,
    });
    expect(key).toBe('6bbe919dd7e0c3088719481d162811717736323cdfb2856a5b6147df183dd37e0e8a998a5b3f6bac00f7d34bc79c214e');
  });

  it('takes a company buyer with its NIT and check digit', () => {
    const buyer: Buyer = { taxId: { type: 'NIT', number: '900559088', dv: 2 }, legalName: 'Alegra SAS', email: 'facturas@example.com' };
    expect(invoiceDraft({ ...base, buyer }).buyer).toEqual(buyer);
  });

  const company = (taxId: Buyer['taxId']): Buyer => ({ taxId, legalName: 'Empresa SAS', email: null });
  const numbered = (change: Partial<CallerNumbering>): CallerNumbering => ({ prefix: 'SETP', number: 990_000_001, resolution: RESOLUTION, ...change });

  it.each<[string, Partial<Parameters<typeof invoiceDraft>[0]>, string]>([
    ['a NIT with a wrong check digit', { buyer: company({ type: 'NIT', number: '900559088', dv: 3 }) }, 'buyer.taxId.dv'],
    ['a NIT with its check digit in the number', { buyer: company({ type: 'NIT', number: '900559088-2', dv: 2 }) }, 'buyer.taxId.number'],
    ['a cédula with a check digit', { buyer: company({ type: 'CC', number: '52123456', dv: 1 }) }, 'buyer.taxId.dv'],
    ['a cédula with letters', { buyer: company({ type: 'CC', number: '52A23456', dv: null }) }, 'buyer.taxId.number'],
    ['the final consumer\'s number as a tax id', { buyer: company({ type: 'CC', number: '222222222222', dv: null }) }, 'buyer.taxId.number'],
    ['an empty legal name', { buyer: { taxId: null, legalName: ' ', email: null } }, 'buyer.legalName'],
    ['a malformed e-mail', { buyer: finalConsumer('not-an-email') }, 'buyer.email'],
    ['no lines', { lines: [] }, 'lines'],
    ['a line without a description', { lines: [{ ...LINE, description: '' }] }, 'lines.0.description'],
    ['a discount above the price', { lines: [{ ...LINE, discount: 5_000_000 }] }, 'lines.0'],
    ['a number outside the resolution', { numbering: numbered({ number: 995_000_001 }) }, 'numbering.number'],
    ['a prefix other than the resolution\'s', { numbering: numbered({ prefix: 'SETT' }) }, 'numbering.prefix'],
    ['a prefix of 5 characters', { numbering: numbered({ prefix: 'SETPX' }) }, 'numbering.prefix'],
    ['a 38-hex technical key', { numbering: numbered({ resolution: { ...RESOLUTION, technicalKey: RESOLUTION.technicalKey.slice(2) } }) }, 'numbering.resolution.technicalKey'],
    ['an invoice number without a resolution', { numbering: numbered({ resolution: null }) }, 'numbering.resolution'],
    ['a period that ends before it starts', { period: { start: '2026-11-28', end: '2026-11-27' } }, 'period'],
    ['a reference with spaces', { reference: 'txn 1' }, 'reference'],
  ])('refuses %s, naming the field', (_name, change, field) => {
    expect(fieldOf(() => invoiceDraft({ ...base, ...change }))).toBe(field);
  });
});

describe('creditNoteDraft', () => {
  const invoice = { number: 'SETP990000001', prefix: 'SETP', cufe: '6bbe919dd7e0c3088719481d162811717736323cdfb2856a5b6147df183dd37e0e8a998a5b3f6bac00f7d34bc79c214e', issueDate: '2026-11-28' };
  const note = { ...base, reference: 'cn_01HXYZ', issuedAt: new Date('2026-11-29T14:15:00Z'), concept: '2' as const, invoice };

  it('cites the invoice and repeats its amounts', () => {
    const draft = creditNoteDraft({ ...note, numbering: { prefix: 'NC', number: 1, resolution: null } });
    expect(draft).toMatchObject({ kind: 'CREDIT_NOTE', concept: '2', invoice, issue: { date: '2026-11-29', time: '09:15:00-05:00' } });
    expect(draft.totals.payable).toBe(4_990_000);
  });

  it.each<[string, Partial<typeof note>, string]>([
    ['a CUFE that is not 96 hex characters', { invoice: { ...invoice, cufe: invoice.cufe.slice(1) } }, 'invoice.cufe'],
    ['a number without its prefix', { invoice: { ...invoice, number: '990000001' } }, 'invoice.number'],
    ['a note dated before its invoice', { issuedAt: new Date('2026-11-27T15:00:00Z') }, 'invoice.issueDate'],
  ])('refuses %s', (_name, change, field) => {
    expect(fieldOf(() => creditNoteDraft({ ...note, ...change }))).toBe(field);
  });
});
