import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alegraCreditNoteBody, alegraInvoiceBody, parseAlegraDocument } from './alegra';
import { parseFactusDocument } from './factus';
import { factusCreditNoteBody, factusInvoiceBody } from './factus-body';
import { COMPANY_BUYER, sampleCreditNote, sampleInvoice } from '@/test/einvoicing-drafts';

// Contract tests (docs/einvoicing.md#contract-tests): each adapter's request for the same drafts is
// held to a byte-stable JSON fixture in test/fixtures/einvoicing/, and the vendors' documented
// sample replies (Factus v2's create-and-validate and error-handling pages, Alegra e-provider's
// OpenAPI) are parsed into the port's answers. A changed fixture is a changed request: review it
// against the vendor's documentation, then write the new bytes on purpose.

const FIXTURES = path.resolve(__dirname, '../../test/fixtures/einvoicing');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const stable = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const invoice = sampleInvoice();
const companyInvoice = sampleInvoice({ reference: 'txn_01JDX7Q2Z3A4B5C6D7E8F9G0J3', number: 990_000_002, buyer: COMPANY_BUYER, discount: 0 });
const CUFE = '6bbe919dd7e0c3088719481d162811717736323cdfb2856a5b6147df183dd37e0e8a998a5b3f6bac00f7d34bc79c214e';
const note = sampleCreditNote(invoice, { number: 'SETP990000001', cufe: CUFE, issueDate: '2026-11-28' });

describe('requests', () => {
  it.each([
    ['factus-invoice.json', () => factusInvoiceBody(invoice)],
    ['factus-invoice-company.json', () => factusInvoiceBody(companyInvoice, 8)],
    ['factus-credit-note.json', () => factusCreditNoteBody(note)],
    ['alegra-invoice.json', () => alegraInvoiceBody(invoice, 'company-1')],
    ['alegra-invoice-company.json', () => alegraInvoiceBody(companyInvoice, 'company-1')],
    ['alegra-credit-note.json', () => alegraCreditNoteBody(note, 'company-1')],
  ])('%s', (name, body) => {
    expect(stable(body())).toBe(fixture(name));
  });

  it('sends Factus the net price and Alegra the split, both adding up to what was charged', () => {
    const factus = factusInvoiceBody(invoice) as { items: { price: string; discount_amount: string }[]; payment_details: { amount: string }[] };
    expect(factus.items[0]).toMatchObject({ price: '41932.77', discount_amount: '8386.55' });
    expect(factus.payment_details[0]!.amount).toBe('39920.00');
    const alegra = alegraInvoiceBody(invoice, 'company-1') as { totalAmounts: Record<string, number> };
    expect(alegra.totalAmounts).toMatchObject({ grossTotal: 33546.22, taxTotal: 6373.78, payableTotal: 39920 });
  });
});

describe('vendor sample replies', () => {
  const reply = (name: string) => JSON.parse(fixture(name)) as unknown;

  it('Factus: a validated invoice, with a DIAN notice kept as a warning', () => {
    expect(parseFactusDocument(reply('factus-reply-validated.json'), 'INVOICE', 2)).toEqual({
      status: 'ISSUED',
      number: 'SETP990000550',
      cufe: '6bbe919dd7e0c3088719481d162811717736323cdfb2856a5b6147df183dd37e0e8a998a5b3f6bac00f7d34bc79c214e',
      qrUrl: 'https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=6bbe919dd7e0c3088719481d162811717736323cdfb2856a5b6147df183dd37e0e8a998a5b3f6bac00f7d34bc79c214e',
      pdfUrl: 'https://public-sandbox.factus.com.co/document/SETP990000550',
      providerId: 'SETP990000550',
      warnings: [{ rule: 'FAJ44b', message: 'Regla: FAJ44b, Notificación: Nombre informado No corresponde al registrado en el RUT con respecto al Nit suministrado.' }],
    });
  });

  it('Factus: a rejection ("Rechazo") and a validation DIAN has not answered yet', () => {
    expect(parseFactusDocument(reply('factus-reply-rejected.json'), 'INVOICE', 2)).toEqual({
      status: 'REJECTED',
      errors: [{ rule: 'FAJ43b', message: 'Regla: FAJ43b, Rechazo: Nombre informado No corresponde al registrado en el RUT con respecto al Nit suministrado.' }],
    });
    expect(parseFactusDocument(reply('factus-reply-pending.json'), 'INVOICE', 2)).toEqual({ status: 'PENDING' });
  });

  it('Factus: a credit note answers its CUDE', () => {
    expect(parseFactusDocument(reply('factus-reply-credit-note.json'), 'CREDIT_NOTE', 2)).toMatchObject({ status: 'ISSUED', number: 'NC6', cufe: expect.stringMatching(/^[0-9a-f]{96}$/) });
  });

  it('Alegra: an accepted invoice, and rejections 89 and 90', () => {
    expect(parseAlegraDocument(reply('alegra-reply-accepted.json'), 'INVOICE', 2)).toMatchObject({ status: 'ISSUED', number: 'SETP990000001', providerId: 'c8a2b8e0-4b1f-4d1e-9a61-2f2f6d1f0c11' });
    expect(parseAlegraDocument(reply('alegra-reply-rejected-89.json'), 'INVOICE', 2)).toEqual({
      status: 'REJECTED',
      errors: [{ rule: '89', message: 'NIT 900559088 no autorizado a enviar documentos para emisor con NIT 901234567' }],
    });
    expect(parseAlegraDocument(reply('alegra-reply-duplicate-90.json'), 'INVOICE', 2)).toMatchObject({ status: 'DUPLICATE' });
  });

  it('neither reads a body that is not a document', () => {
    expect(parseFactusDocument({ message: 'Unauthenticated.' }, 'INVOICE', 2)).toBeNull();
    expect(parseAlegraDocument({ code: 500, message: 'error' }, 'INVOICE', 2)).toBeNull();
  });
});
