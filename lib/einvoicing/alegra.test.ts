import { describe, expect, it } from 'vitest';
import { alegraDoubleAccount, startAlegraDouble, type AlegraAccount } from '@/test/alegra-double';
import { alegraInvoiceBody, createAlegraProvider } from './alegra';
import { cufe, dianQrUrl } from './cufe';
import { EInvoiceAuthError, EInvoiceRetryableError, type EInvoiceProvider, type IssuedDocument } from './provider';
import { withProviderDouble } from '@/test/einvoice-provider-double';
import { COMPANY_BUYER, sampleCreditNote, sampleInvoice } from '@/test/einvoicing-drafts';

// The Alegra e-provider adapter against the local double (test/alegra-double.ts): we number, so a
// repeat is the same number, which DIAN answers with rule 90 and the adapter reads back.

let next = 990_000_000;

const providerFor = (a: AlegraAccount, timeoutMs?: number): EInvoiceProvider =>
  createAlegraProvider({ baseUrl: live.double.url, credentials: { token: a.token, companyId: a.companyId }, environment: 2, ...(timeoutMs ? { timeoutMs } : {}) });
const draft = (change: Parameters<typeof sampleInvoice>[0] = {}) => sampleInvoice({ reference: `txn_${++next}`, number: next, ...change });

const live = withProviderDouble(startAlegraDouble, (d) => alegraDoubleAccount(d), (a) => providerFor(a));

describe('credentials', () => {
  it('checks them without issuing anything', async () => {
    await live.provider.checkCredentials();
    expect(live.double.documents.filter((d) => d.account === live.account)).toEqual([]);
  });

  it('refuses an unknown token and a company the token does not have', async () => {
    await expect(providerFor({ ...live.account, token: 'nope' }).checkCredentials()).rejects.toBeInstanceOf(EInvoiceAuthError);
    await expect(providerFor({ ...live.account, companyId: 'another' }).checkCredentials()).rejects.toBeInstanceOf(EInvoiceAuthError);
  });
});

describe('issuing an invoice', () => {
  it('is ISSUED under our number with the CUFE of what we sent', async () => {
    const invoice = draft();
    const result = (await live.provider.issueInvoice(invoice)) as IssuedDocument;
    expect(result).toMatchObject({ status: 'ISSUED', number: `SETP${next}` });
    const stored = live.double.documents.find((d) => d.id === result.providerId)!;
    expect(result.cufe).toBe(stored.key);
    expect(result.qrUrl).toBe(dianQrUrl(result.cufe, 2));
    expect(stored.payable).toBe(invoice.totals.payable);
  });

  it('answers the CUFE we recompute from what we sent, and another for any other amount', async () => {
    for (const invoice of [draft(), draft({ discount: 0 }), draft({ buyer: COMPANY_BUYER })]) {
      const result = (await live.provider.issueInvoice(invoice)) as IssuedDocument;
      const stored = live.double.documents.find((d) => d.id === result.providerId)!;
      const recomputed = cufe({
        number: result.number,
        issueDate: stored.issueDate,
        issueTime: stored.issueTime,
        lineExtension: invoice.totals.lineExtension,
        iva: invoice.totals.iva,
        inc: 0,
        ica: 0,
        payable: invoice.totals.payable,
        supplierNit: live.account.nit,
        buyerId: invoice.buyer.taxId?.number ?? '222222222222',
        technicalKey: invoice.numbering!.resolution!.technicalKey,
        environment: 2,
      });
      expect(result.cufe).toBe(recomputed);
    }
  });

  it('answers the document already issued when the same number is sent again (rule 90)', async () => {
    const invoice = draft();
    const first = (await live.provider.issueInvoice(invoice)) as IssuedDocument;
    const again = (await live.provider.issueInvoice(invoice)) as IssuedDocument;
    expect(again).toMatchObject({ status: 'ISSUED', number: first.number, cufe: first.cufe, providerId: first.providerId });
    expect(live.double.documents.filter((d) => d.account === live.account && d.legalStatus === 'ACCEPTED')).toHaveLength(1);
  });

  it.each([19, 5, 0, 'excluded'] as const)('is accepted at IVA %s', async (iva) => {
    expect((await live.provider.issueInvoice(draft({ iva, discount: 0 }))).status).toBe('ISSUED');
  });

  it('issues to a company by NIT with its check digit', async () => {
    expect((await live.provider.issueInvoice(draft({ buyer: COMPANY_BUYER }))).status).toBe('ISSUED');
  });

  it('is REJECTED with rule 89 when the key is not the company\'s, and 92 when the company is not enabled', async () => {
    const other = providerFor(alegraDoubleAccount(live.double, { technicalKey: 'a'.repeat(40) }));
    expect(await other.issueInvoice(draft())).toMatchObject({ status: 'REJECTED', errors: [{ rule: '89' }] });
    const disabled = providerFor(alegraDoubleAccount(live.double, { enabled: false }));
    expect(await disabled.issueInvoice(draft())).toMatchObject({ status: 'REJECTED', errors: [{ rule: '92' }] });
  });

  it('is REJECTED with DIAN\'s rule, and the number can be sent again once fixed', async () => {
    live.double.fail({ kind: 'dian', rule: 'FAD06' });
    const invoice = draft();
    expect(await live.provider.issueInvoice(invoice)).toMatchObject({ status: 'REJECTED', errors: [{ rule: 'FAD06' }] });
    expect((await live.provider.issueInvoice(invoice)).status).toBe('ISSUED');
  });
});

describe('faults', () => {
  it.each([429, 500, 503] as const)('HTTP %s is a retryable error', async (status) => {
    live.double.fail({ kind: 'status', status, path: '/e-provider/col/v1/invoices' });
    await expect(live.provider.issueInvoice(draft())).rejects.toBeInstanceOf(EInvoiceRetryableError);
  });

  it('a 401 is an auth error', async () => {
    live.double.fail({ kind: 'status', status: 401 });
    await expect(live.provider.issueInvoice(draft())).rejects.toBeInstanceOf(EInvoiceAuthError);
  });

  it('a hang is a retryable error; the retry with the same number answers one document', async () => {
    const invoice = draft();
    live.double.fail({ kind: 'hang', path: '/e-provider/col/v1/invoices' });
    await expect(providerFor(live.account, 300).issueInvoice(invoice)).rejects.toBeInstanceOf(EInvoiceRetryableError);
    expect((await live.provider.issueInvoice(invoice)).status).toBe('ISSUED');
  });
});

describe('credit notes and lookups', () => {
  it('annuls an accepted invoice citing its prefix, number and CUFE', async () => {
    const invoice = draft();
    const issued = (await live.provider.issueInvoice(invoice)) as IssuedDocument;
    const note = sampleCreditNote(invoice, { number: issued.number, cufe: issued.cufe, issueDate: '2026-11-28' }, { reference: `cn_${next}`, number: next, issuedAt: new Date() });
    const result = (await live.provider.issueCreditNote(note)) as IssuedDocument;
    expect(result).toMatchObject({ status: 'ISSUED', number: `NC${next}` });
    expect(result.cufe).not.toBe(issued.cufe);
  });

  it('a note citing the wrong CUFE is REJECTED naming the citation', async () => {
    const invoice = draft();
    const issued = (await live.provider.issueInvoice(invoice)) as IssuedDocument;
    const note = sampleCreditNote(invoice, { number: issued.number, cufe: 'b'.repeat(96), issueDate: '2026-11-28' }, { number: next, issuedAt: new Date() });
    expect(await live.provider.issueCreditNote(note)).toMatchObject({ status: 'REJECTED', errors: [{ rule: 'associatedDocuments.0' }] });
  });

  it('finds a document by our number and by Alegra\'s id; nothing for a number never sent', async () => {
    const invoice = draft();
    const issued = (await live.provider.issueInvoice(invoice)) as IssuedDocument;
    expect(await live.provider.findDocument({ kind: 'INVOICE', reference: invoice.reference, number: issued.number })).toMatchObject({ status: 'ISSUED', cufe: issued.cufe });
    expect(await live.provider.findDocument({ kind: 'INVOICE', reference: invoice.reference, providerId: issued.providerId })).toMatchObject({ status: 'ISSUED', cufe: issued.cufe });
    expect(await live.provider.findDocument({ kind: 'INVOICE', reference: 'x', number: 'SETP994999999' })).toBeNull();
  });
});

describe('the double', () => {
  const post = (body: unknown) =>
    fetch(`${live.double.url}/invoices`, { method: 'POST', headers: { Authorization: `Bearer ${live.account.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('requires discountTotal, chargeTotal and advanceTotal even as 0', async () => {
    const body = alegraInvoiceBody(draft(), live.account.companyId);
    delete (body.totalAmounts as Record<string, unknown>).advanceTotal;
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/totalAmounts\.advanceTotal/);
  });

  it('requires taxPercentage as a string', async () => {
    const body = alegraInvoiceBody(draft(), live.account.companyId);
    ((body.items as Record<string, unknown>[])[0]!.taxes as Record<string, unknown>[])[0]!.taxPercentage = 19;
    expect((await post(body)).status).toBe(400);
  });

  it('refuses a number outside the resolution', async () => {
    const body = { ...alegraInvoiceBody(draft(), live.account.companyId), number: 995_000_001 };
    expect((await post(body)).status).toBe(400);
  });
});
