import { describe, expect, it } from 'vitest';
import { factusDoubleAccount, startFactusDouble, type FactusAccount } from '@/test/factus-double';
import { dianQrUrl } from './cufe';
import { creditNoteDraft, type Buyer } from './draft';
import { createFactusProvider } from './factus';
import { factusInvoiceBody } from './factus-body';
import { EInvoiceAuthError, EInvoiceRetryableError, type EInvoiceProvider, type IssuedDocument } from './provider';
import { withProviderDouble } from '@/test/einvoice-provider-double';
import { COMPANY_BUYER, sampleCreditNote, sampleInvoice } from '@/test/einvoicing-drafts';

// The Factus adapter against the local double (test/factus-double.ts): what it sends is held to
// fixtures by contract.test.ts; here, how it behaves when Factus answers, refuses, fails or hangs.


const providerFor = (a: FactusAccount, timeoutMs?: number): EInvoiceProvider =>
  createFactusProvider({ baseUrl: live.double.url, credentials: { ...a, numberingRangeId: null }, environment: 2, ...(timeoutMs ? { timeoutMs } : {}) });
let seq = 0;
const reference = () => `txn_test${++seq}${Date.now()}`;
const tokenCalls = () => live.double.requests.filter((r) => r.path === '/oauth/token').length;

const live = withProviderDouble(startFactusDouble, (d) => factusDoubleAccount(d), (a) => providerFor(a));

describe('credentials', () => {
  it('checks them without issuing anything', async () => {
    await live.provider.checkCredentials();
    expect(live.double.documents.filter((d) => d.account === live.account)).toEqual([]);
  });

  it.each([
    ['a wrong password', { password: 'nope' }],
    ['an unknown client', { clientId: 'nobody' }],
    ['a wrong client secret', { clientSecret: 'nope' }],
  ])('refuses %s as an auth error', async (_name, change) => {
    await expect(providerFor({ ...live.account, ...change }).checkCredentials()).rejects.toBeInstanceOf(EInvoiceAuthError);
  });

  it('gets a new token when Factus ends the old one, and goes on', async () => {
    await live.provider.issueInvoice(sampleInvoice({ reference: reference(), number: null }));
    const before = tokenCalls();
    live.double.expireTokens();
    const result = await live.provider.issueInvoice(sampleInvoice({ reference: reference(), number: null }));
    expect(result.status).toBe('ISSUED');
    expect(tokenCalls()).toBe(before + 1);
  });
});

describe('tokens', () => {
  it('asks Factus for one token for a burst of documents, however many providers are built', async () => {
    const before = tokenCalls();
    const results = await Promise.all(Array.from({ length: 20 }, () => providerFor(live.account).issueInvoice(sampleInvoice({ reference: reference(), number: null }))));
    expect(results.every((r) => r.status === 'ISSUED')).toBe(true);
    expect(tokenCalls()).toBe(before + 1);
  });
});

describe('issuing an invoice', () => {
  it('is ISSUED with a number of the test range, the CUFE and DIAN\'s QR link, DIAN\'s notices kept', async () => {
    const draft = sampleInvoice({ reference: reference(), number: null });
    const result = (await live.provider.issueInvoice(draft)) as IssuedDocument;
    expect(result.status).toBe('ISSUED');
    expect(result.number).toMatch(/^SETP99\d{7}$/);
    const stored = live.double.documents.find((d) => d.reference === draft.reference)!;
    expect(result.cufe).toBe(stored.key);
    expect(result.cufe).toMatch(/^[0-9a-f]{96}$/);
    expect(result.qrUrl).toBe(dianQrUrl(result.cufe, 2));
    expect(result.warnings.map((w) => w.rule)).toEqual(['FAJ44b']);
    // Factus totals net prices: the charged 39 920 COP is what it validated.
    expect(stored.total).toBe(draft.totals.payable);
  });

  it('answers the same document for the same reference: never two invoices for one charge', async () => {
    const draft = sampleInvoice({ reference: reference(), number: null });
    const first = (await live.provider.issueInvoice(draft)) as IssuedDocument;
    const again = (await live.provider.issueInvoice(draft)) as IssuedDocument;
    expect(again.number).toBe(first.number);
    expect(again.cufe).toBe(first.cufe);
    expect(live.double.documents.filter((d) => d.reference === draft.reference)).toHaveLength(1);
  });

  it.each([
    ['19 %', 19 as const],
    ['5 %', 5 as const],
    ['0 % (exempt)', 0 as const],
    ['excluded', 'excluded' as const],
  ])('is validated at IVA %s, the payment equal to what was charged', async (_name, iva) => {
    const draft = sampleInvoice({ reference: reference(), number: null, iva, unitPrice: 4_990_000, discount: 0 });
    expect((await live.provider.issueInvoice(draft)).status).toBe('ISSUED');
  });

  it('issues to a company by NIT with its check digit', async () => {
    const result = await live.provider.issueInvoice(sampleInvoice({ reference: reference(), number: null, buyer: COMPANY_BUYER }));
    expect(result.status).toBe('ISSUED');
    const body = live.double.requests.filter((r) => r.path === '/v2/bills/validate').at(-1)!.body as { customer: Record<string, unknown> };
    expect(body.customer).toMatchObject({ identification_document_code: '31', identification: '900559088', dv: '2', legal_organization_code: '1' });
  });

  it('is REJECTED naming Factus\' field when Factus refuses the body (11 twos are not the final consumer)', async () => {
    const buyer: Buyer = { taxId: { type: 'CC', number: '22222222222', dv: null }, legalName: 'Ana', email: null };
    const result = await live.provider.issueInvoice(sampleInvoice({ reference: reference(), number: null, buyer }));
    expect(result).toMatchObject({ status: 'REJECTED', errors: [{ rule: 'customer.identification' }] });
  });

  it('is REJECTED with DIAN\'s rule, and the rejected document blocks nothing after', async () => {
    live.double.fail({ kind: 'dian', rule: 'FAD06' });
    const draft = sampleInvoice({ reference: reference(), number: null });
    const rejected = await live.provider.issueInvoice(draft);
    expect(rejected).toMatchObject({ status: 'REJECTED', errors: [{ rule: 'FAD06', message: expect.stringContaining('Rechazo') }] });
    expect(live.double.documents.some((d) => d.reference === draft.reference)).toBe(false);
    expect((await live.provider.issueInvoice(sampleInvoice({ reference: reference(), number: null }))).status).toBe('ISSUED');
    expect((await live.provider.issueInvoice(draft)).status).toBe('ISSUED');
  });

  it('when the delete of a rejected document was lost, its own retry deletes it and unblocks the rest', async () => {
    live.double.fail({ kind: 'dian', rule: 'FAD06' }, { kind: 'status', status: 503, path: '/v2/bills/destroy' });
    const rejectedDraft = sampleInvoice({ reference: reference(), number: null });
    expect((await live.provider.issueInvoice(rejectedDraft)).status).toBe('REJECTED');
    const other = sampleInvoice({ reference: reference(), number: null });
    await expect(live.provider.issueInvoice(other)).rejects.toThrow(/409/);
    expect((await live.provider.issueInvoice(rejectedDraft)).status).toBe('ISSUED');
    expect((await live.provider.issueInvoice(other)).status).toBe('ISSUED');
  });

  it('reads back the document DIAN already processed on rule 90', async () => {
    live.double.fail({ kind: 'dian', rule: '90' });
    const draft = sampleInvoice({ reference: reference(), number: null });
    const result = await live.provider.issueInvoice(draft);
    expect(result).toMatchObject({ status: 'ISSUED', cufe: live.double.documents.find((d) => d.reference === draft.reference)!.key });
  });

  it('is a retryable error while DIAN has not answered, then ISSUED with the same number', async () => {
    live.double.fail({ kind: 'dian-pending' });
    const draft = sampleInvoice({ reference: reference(), number: null });
    await expect(live.provider.issueInvoice(draft)).rejects.toBeInstanceOf(EInvoiceRetryableError);
    const pendingNumber = live.double.documents.find((d) => d.reference === draft.reference)!.number;
    expect(await live.provider.issueInvoice(draft)).toMatchObject({ status: 'ISSUED', number: pendingNumber });
  });
});

describe('faults', () => {
  it.each([429, 500, 502, 503] as const)('HTTP %s is a retryable error, then the retry issues', async (status) => {
    live.double.fail({ kind: 'status', status, path: '/v2/bills/validate', retryAfterSeconds: 7 });
    const draft = sampleInvoice({ reference: reference(), number: null });
    const error = await live.provider.issueInvoice(draft).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EInvoiceRetryableError);
    expect((error as EInvoiceRetryableError).retryAfterMs).toBe(7000);
    expect((await live.provider.issueInvoice(draft)).status).toBe('ISSUED');
  });

  it('a 422 is REJECTED with Factus\' message, and changes nothing at Factus', async () => {
    live.double.fail({ kind: 'status', status: 422, path: '/v2/bills/validate' });
    const draft = sampleInvoice({ reference: reference(), number: null });
    expect(await live.provider.issueInvoice(draft)).toMatchObject({ status: 'REJECTED', errors: [{ rule: '422', message: expect.stringContaining('422') }] });
    expect(live.double.documents.some((d) => d.reference === draft.reference)).toBe(false);
  });

  it('answers after the latency the double is given (a benchmark\'s slow provider)', async () => {
    live.double.setLatency(150);
    try {
      const started = performance.now();
      await live.provider.checkCredentials();
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      live.double.setLatency(0);
    }
  });

  it('a 409 for a document that exists answers that document', async () => {
    const draft = sampleInvoice({ reference: reference(), number: null });
    const issued = (await live.provider.issueInvoice(draft)) as IssuedDocument;
    live.double.fail({ kind: 'status', status: 409, path: '/v2/bills/validate' });
    expect(await live.provider.issueInvoice(draft)).toMatchObject({ status: 'ISSUED', number: issued.number });
  });

  it('a 401 on a call gets a new token once and goes on', async () => {
    live.double.fail({ kind: 'status', status: 401, path: '/v2/bills/validate' });
    expect((await live.provider.issueInvoice(sampleInvoice({ reference: reference(), number: null }))).status).toBe('ISSUED');
  });

  it('a hang is a retryable error after the call\'s deadline', async () => {
    live.double.fail({ kind: 'hang', path: '/v2/bills/validate' });
    const impatient = providerFor(live.account, 300);
    await expect(impatient.issueInvoice(sampleInvoice({ reference: reference(), number: null }))).rejects.toThrow(/did not answer in time/);
  });

  it('a provider that cannot be reached is a retryable error', async () => {
    const gone = createFactusProvider({ baseUrl: 'http://127.0.0.1:9', credentials: live.account, environment: 2, timeoutMs: 2000 });
    await expect(gone.checkCredentials()).rejects.toBeInstanceOf(EInvoiceRetryableError);
  });
});

describe('credit notes and lookups', () => {
  it('annuls an issued invoice citing its number; one note per reference', async () => {
    const invoice = sampleInvoice({ reference: reference(), number: null });
    const issued = (await live.provider.issueInvoice(invoice)) as IssuedDocument;
    const note = sampleCreditNote(invoice, { number: issued.number, cufe: issued.cufe, issueDate: '2026-11-28' }, { reference: `cn_${reference()}`, number: null, issuedAt: new Date() });
    const result = (await live.provider.issueCreditNote(note)) as IssuedDocument;
    expect(result).toMatchObject({ status: 'ISSUED', number: expect.stringMatching(/^NC\d+$/) });
    expect(result.cufe).not.toBe(issued.cufe);
    expect((live.double.requests.filter((r) => r.path === '/v2/credit-notes/validate').at(-1)!.body as Record<string, unknown>).bill_number).toBe(issued.number);
    expect(((await live.provider.issueCreditNote(note)) as IssuedDocument).number).toBe(result.number);
  });

  it('a note citing an invoice DIAN never validated is REJECTED', async () => {
    const invoice = sampleInvoice({ reference: reference(), number: null });
    const note = creditNoteDraft({
      ...{ reference: `cn_${reference()}`, issuedAt: new Date(), buyer: invoice.buyer, lines: invoice.lines, paymentMethod: 'CARD' as const, concept: '2' as const },
      invoice: { number: 'SETP994999999', prefix: 'SETP', cufe: 'a'.repeat(96), issueDate: '2026-11-28' },
    });
    expect(await live.provider.issueCreditNote(note)).toMatchObject({ status: 'REJECTED', errors: [{ rule: 'bill_number' }] });
  });

  it('finds a document by our reference, and nothing for an unknown one', async () => {
    const draft = sampleInvoice({ reference: reference(), number: null });
    const issued = (await live.provider.issueInvoice(draft)) as IssuedDocument;
    expect(await live.provider.findDocument({ kind: 'INVOICE', reference: draft.reference })).toMatchObject({ status: 'ISSUED', number: issued.number, cufe: issued.cufe });
    expect(await live.provider.findDocument({ kind: 'INVOICE', reference: 'txn_unknown' })).toBeNull();
  });
});

describe('the double', () => {
  it('refuses a gross (IVA-included) price: Factus v2 prices are net', async () => {
    const draft = sampleInvoice({ reference: reference(), number: null, discount: 0 });
    const body = factusInvoiceBody(draft);
    const items = body.items as Record<string, unknown>[];
    items[0]!.price = '49900.00';
    const token = ((await (await fetch(`${live.double.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: live.account.clientId, client_secret: live.account.clientSecret, username: live.account.username, password: live.account.password }),
    })).json()) as { access_token: string }).access_token;
    const res = await fetch(`${live.double.url}/v2/bills/validate`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.payment_details).toBeDefined();
  });

  it('refuses a token sent as JSON instead of a form', async () => {
    const res = await fetch(`${live.double.url}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ grant_type: 'password' }) });
    expect(res.status).toBe(400);
  });
});
