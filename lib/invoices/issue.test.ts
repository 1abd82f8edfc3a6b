import { and, asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { claimDueInvoices, finishInvoice, type InvoiceRow } from '@/db/queries/invoices';
import { invoices, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { createEInvoiceProvider } from '@/lib/einvoicing';
import { getMerchant } from '@/db/queries/merchants';
import { splitIva } from '@/lib/einvoicing/money';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { recordVoid } from '@/lib/settlement/void';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { updateMerchant } from '@/lib/merchants/merchants';
import { lifecyclePayloadSchema } from '@/lib/webhooks/payload';
import { alegraDoubleAccount, type AlegraDouble } from '@/test/alegra-double';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { factusDoubleAccount, type FactusDouble } from '@/test/factus-double';
import { withEInvoiceDoubles } from '@/test/invoice-doubles';
import { alegraSettings, factusSettings, holdInvoiceHandOffs, restoreInvoiceQueue, turnEInvoicingOn } from '@/test/invoices';
import { retryInvoice } from './views';
import { invoiceLeaseMs, issueDueInvoices, type IssueOptions, retryDelayMs } from './issue';
import { openSettings } from './settings';

// Issuing electronic invoices against the Factus and Alegra doubles (docs/einvoicing.md#issuing):
// one invoice per approved charge written with the settlement, issued after commit, retried with
// backoff, rejected with DIAN's reasons, never twice however many issuers race, and annulled by a
// credit note when its charge is voided.

let database: Database;
let factus: FactusDouble;
let alegra: AlegraDouble;
const sandbox = createSandboxProcessor({ pendingMs: 0 });
const SHORT: IssueOptions['providerFor'] = (settings) => createEInvoiceProvider(settings, { timeoutMs: 500 });

const doubles = withEInvoiceDoubles();
beforeAll(() => ({ factus, alegra, database } = doubles));
beforeEach(() => {
  factus.clearFaults();
  alegra.clearFaults();
  restoreInvoiceQueue();
});

const invoicesOf = (transactionId: string) => database.db.select().from(invoices).where(eq(invoices.transactionId, transactionId)).orderBy(invoices.id);
const invoiceOf = async (transactionId: string) => (await invoicesOf(transactionId)).find((i) => i.kind === 'INVOICE')!;
const rowOf = async (id: string) => (await database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const later = (ms: number) => new Date(Date.now() + ms);

/** A merchant with e-invoicing (or not) and one approved charge of it. */
async function approvedCharge(provider: 'factus' | 'alegra' | null, plan: Record<string, unknown> = {}, buyer: Partial<typeof subscriptionPlans.$inferInsert> = {}) {
  const link = await createTestLink(database.db, { amount: 4_990_000, ...plan });
  if (Object.keys(buyer).length > 0) await database.db.update(subscriptionPlans).set(buyer).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
  const account = provider === 'factus' ? factusDoubleAccount(factus) : provider === 'alegra' ? alegraDoubleAccount(alegra) : null;
  if (provider === 'factus') await turnEInvoicingOn(database.db, link.merchant.merchantId, factusSettings(account as ReturnType<typeof factusDoubleAccount>));
  if (provider === 'alegra') await turnEInvoicingOn(database.db, link.merchant.merchantId, alegraSettings(account as ReturnType<typeof alegraDoubleAccount>));
  const paid = await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  expect(paid.status).toBe('APPROVED');
  return { link, account, transactionId: paid.subscriptionTransactionId! };
}

const factusDocs = (reference: string) => factus.documents.filter((d) => d.reference === reference);

describe('an approved charge', () => {
  it('gets one PENDING invoice in its settlement, issued after commit by the in-process runner', async () => {
    const { transactionId, link } = await approvedCharge('factus');
    await deliveriesSettled();
    const [invoice, ...more] = await invoicesOf(transactionId);
    expect(more).toEqual([]);
    const { net, iva } = splitIva(4_990_000, 19);
    expect(invoice).toMatchObject({
      kind: 'INVOICE',
      status: 'ISSUED',
      merchantId: link.merchant.merchantId,
      number: expect.stringMatching(/^SETP99\d{7}$/),
      cufe: expect.stringMatching(/^[0-9a-f]{96}$/),
      qrUrl: expect.stringContaining('catalogo-vpfe-hab.dian.gov.co'),
      total: 4_990_000,
      net,
      ivaAmount: iva,
      attempts: 1,
      buyer: { taxId: null, legalName: 'Consumidor final', email: 'ana@example.com' },
    });
    expect(factusDocs(transactionId)).toHaveLength(1);
  });

  it('is made out to the company the customer named, by NIT with its check digit', async () => {
    const { transactionId } = await approvedCharge('factus', {}, { customerTaxIdType: 'NIT', customerTaxIdNumber: '900559088', customerTaxIdDv: 2, customerLegalName: 'Empresa de Pruebas SAS' });
    await deliveriesSettled();
    expect(await invoiceOf(transactionId)).toMatchObject({ status: 'ISSUED', buyer: { taxId: { type: 'NIT', number: '900559088', dv: 2 }, legalName: 'Empresa de Pruebas SAS' } });
    const customer = (factusDocs(transactionId)[0]!.body as { customer: Record<string, unknown> }).customer;
    expect(customer).toMatchObject({ identification_document_code: '31', identification: '900559088', dv: '2', company: 'Empresa de Pruebas SAS' });
  });

  it("is taxed at the plan's own IVA rate when the link set one, else at the merchant's", async () => {
    const own = await approvedCharge('factus', { iva: 5 });
    const merchants = await approvedCharge('factus');
    await deliveriesSettled();
    expect(await invoiceOf(own.transactionId)).toMatchObject({ status: 'ISSUED', ivaRate: '5', ivaAmount: splitIva(4_990_000, 5).iva });
    expect(await invoiceOf(merchants.transactionId)).toMatchObject({ status: 'ISSUED', ivaRate: '19', ivaAmount: splitIva(4_990_000, 19).iva });
    expect(splitIva(4_990_000, 5).iva).not.toBe(splitIva(4_990_000, 19).iva);
  });

  it("dated ahead by a merchant's test clock is issued at once, on the real clock", async () => {
    const link = await createTestLink(database.db, { amount: 4_990_000 });
    await turnEInvoicingOn(database.db, link.merchant.merchantId, factusSettings(factusDoubleAccount(factus)));
    const paid = await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))!, now: later(12 * 60 * 60_000) });
    await deliveriesSettled();
    expect(await invoiceOf(paid.subscriptionTransactionId!)).toMatchObject({ status: 'ISSUED', attempts: 1 });
  });

  it('of a merchant without e-invoicing has no invoice and calls no provider', async () => {
    const before = factus.requests.length + alegra.requests.length;
    const { transactionId } = await approvedCharge(null);
    await deliveriesSettled();
    expect(await invoicesOf(transactionId)).toEqual([]);
    expect(factus.requests.length + alegra.requests.length).toBe(before);
  });

  it('is numbered in the merchant\'s Alegra resolution, with the CUFE the double computed for what was sent', async () => {
    const held = holdInvoiceHandOffs();
    const { transactionId, account } = await approvedCharge('alegra');
    expect(held).toHaveLength(1);
    await issueDueInvoices(database.db, { ids: [held[0]!.invoiceId] });
    const invoice = await invoiceOf(transactionId);
    expect(invoice).toMatchObject({ status: 'ISSUED', number: 'SETP990000000', callerNumber: 990_000_000, callerPrefix: 'SETP' });
    const doc = alegra.documents.find((d) => d.number === 990_000_000 && d.account.token === (account as { token: string }).token);
    expect(doc?.legalStatus).toBe('ACCEPTED');
    expect(invoice.cufe).toBe(doc!.key);
  });
});

describe('a provider that fails', () => {
  it('is retried with backoff: a 503, then a 429 with Retry-After, then a hang, then issued', async () => {
    const held = holdInvoiceHandOffs();
    const { transactionId } = await approvedCharge('factus');
    const id = held[0]!.invoiceId;

    factus.fail({ kind: 'status', status: 503, path: '/v2/bills' });
    const t0 = new Date();
    expect(await issueDueInvoices(database.db, { ids: [id], now: t0, providerFor: SHORT })).toMatchObject({ retrying: 1 });
    let row = await rowOf(id);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1, lastError: expect.stringContaining('503'), claim: null });
    expect(row.nextAttemptAt.getTime()).toBe(t0.getTime() + 30_000);
    expect(await issueDueInvoices(database.db, { ids: [id], now: t0 })).toMatchObject({ retrying: 0, issued: 0 });

    factus.fail({ kind: 'status', status: 429, path: '/v2/bills', retryAfterSeconds: 600 });
    const t1 = new Date(t0.getTime() + 31_000);
    await issueDueInvoices(database.db, { ids: [id], now: t1, providerFor: SHORT });
    row = await rowOf(id);
    expect(row.nextAttemptAt.getTime()).toBe(t1.getTime() + 600_000);

    factus.fail({ kind: 'hang', path: '/v2/bills' });
    const t2 = new Date(t1.getTime() + 601_000);
    await issueDueInvoices(database.db, { ids: [id], now: t2, providerFor: SHORT });
    row = await rowOf(id);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 3 });
    expect(row.nextAttemptAt.getTime()).toBe(t2.getTime() + retryDelayMs(3));

    const t3 = new Date(row.nextAttemptAt.getTime() + 1);
    expect(await issueDueInvoices(database.db, { ids: [id], now: t3, providerFor: SHORT })).toMatchObject({ issued: 1 });
    expect(await rowOf(id)).toMatchObject({ status: 'ISSUED', attempts: 4, lastError: null });
    expect(factusDocs(transactionId).filter((d) => d.validated)).toHaveLength(1);
  });

  it('becomes FAILED once 72 hours of retries are over', async () => {
    const held = holdInvoiceHandOffs();
    await approvedCharge('factus');
    const id = held[0]!.invoiceId;
    factus.fail({ kind: 'status', status: 502, path: '/v2/bills' });
    expect(await issueDueInvoices(database.db, { ids: [id], now: later(72 * 3600_000 + 1000), providerFor: SHORT })).toMatchObject({ failed: 1 });
    expect(await rowOf(id)).toMatchObject({ status: 'FAILED', lastError: expect.stringContaining('502') });
  });

  it('that refuses the credentials keeps the invoice waiting, saying why', async () => {
    const held = holdInvoiceHandOffs();
    const { link } = await approvedCharge('factus');
    await turnEInvoicingOn(database.db, link.merchant.merchantId, { ...factusSettings(factusDoubleAccount(factus)), password: 'wrong' });
    await issueDueInvoices(database.db, { ids: [held[0]!.invoiceId], providerFor: SHORT });
    expect(await rowOf(held[0]!.invoiceId)).toMatchObject({ status: 'PENDING', lastError: expect.stringMatching(/^credentials refused/) });
  });
});

describe('a DIAN rejection', () => {
  it('is REJECTED with DIAN\'s rule and message, and issued once the merchant retries', async () => {
    const held = holdInvoiceHandOffs();
    const { transactionId } = await approvedCharge('factus');
    const id = held[0]!.invoiceId;
    factus.fail({ kind: 'dian', rule: 'FAD06' });
    expect(await issueDueInvoices(database.db, { ids: [id] })).toMatchObject({ rejected: 1 });
    const row = await rowOf(id);
    expect(row.status).toBe('REJECTED');
    expect(row.errors).toEqual([expect.objectContaining({ rule: 'FAD06', message: expect.any(String) })]);
    restoreInvoiceQueue();
    await retryInvoice(database.db, row.merchantId, id);
    await deliveriesSettled();
    expect(await rowOf(id)).toMatchObject({ status: 'ISSUED', errors: [] });
    expect(factusDocs(transactionId).filter((d) => d.validated)).toHaveLength(1);
  });
});

describe("DIAN's answer as the merchant's events", () => {
  const invoiceEvents = (planId: string) =>
    database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.planId, planId), inArray(webhookEvents.type, ['invoice.issued', 'invoice.rejected'])))
      .orderBy(asc(webhookEvents.id));

  it('sends invoice.rejected, then invoice.issued, with the document, to a merchant who chose them', async () => {
    const held = holdInvoiceHandOffs();
    const { link, transactionId } = await approvedCharge('factus');
    await updateMerchant(database.db, link.merchant.merchantId, { webhookEvents: ['invoice.issued', 'invoice.rejected'] });
    const id = held[0]!.invoiceId;
    factus.fail({ kind: 'dian', rule: 'FAD06' });
    await issueDueInvoices(database.db, { ids: [id] });
    restoreInvoiceQueue();
    await retryInvoice(database.db, link.merchant.merchantId, id);
    await deliveriesSettled();

    const bodies = (await invoiceEvents(link.subscriptionPlanId)).map((e) => lifecyclePayloadSchema.parse(JSON.parse(e.body)));
    expect(bodies.map((b) => b.event)).toEqual(['invoice.rejected', 'invoice.issued']);
    const [rejected, issued] = bodies;
    expect(rejected!.data.invoice).toMatchObject({ id, kind: 'INVOICE', subscriptionTransactionId: transactionId, status: 'REJECTED', number: null });
    expect(rejected!.data.invoice!.errors).toEqual([expect.objectContaining({ rule: 'FAD06' })]);
    const row = await rowOf(id);
    expect(issued!.data).toMatchObject({ subscriptionPlanId: link.subscriptionPlanId, status: 'ACTIVE' });
    expect(issued!.data.invoice).toMatchObject({ id, status: 'ISSUED', number: row.number, cufe: row.cufe, total: 4_990_000, errors: [] });
  });

  it('sends nothing to a merchant who did not choose them, nor to one pinned before 2026-11-28', async () => {
    const held = holdInvoiceHandOffs();
    const quiet = await approvedCharge('factus');
    const pinned = await approvedCharge('factus');
    await updateMerchant(database.db, pinned.link.merchant.merchantId, { webhookEvents: ['invoice.issued', 'invoice.rejected'], apiVersion: '2026-11-26' });
    expect(await issueDueInvoices(database.db, { ids: held.map((h) => h.invoiceId) })).toMatchObject({ issued: 2 });
    await deliveriesSettled();
    for (const { link, transactionId } of [quiet, pinned]) {
      expect((await invoiceOf(transactionId)).status).toBe('ISSUED');
      expect(await invoiceEvents(link.subscriptionPlanId)).toEqual([]);
    }
  });
});

describe('several issuers', () => {
  it('racing for the same invoice yield one ISSUED invoice and one document', async () => {
    const held = holdInvoiceHandOffs();
    const { transactionId } = await approvedCharge('factus');
    const ids = [held[0]!.invoiceId];
    const results = await Promise.all(Array.from({ length: 4 }, () => issueDueInvoices(database.db, { ids })));
    expect(results.reduce((n, r) => n + r.issued, 0)).toBe(1);
    expect(await invoicesOf(transactionId)).toEqual([expect.objectContaining({ status: 'ISSUED', attempts: 1 })]);
    expect(factusDocs(transactionId)).toHaveLength(1);
  });

  it('after a crash mid-issue: the lease lapses, another issues it, the provider answers the same document, the stale claim writes nothing', async () => {
    const held = holdInvoiceHandOffs();
    const { transactionId } = await approvedCharge('factus');
    const id = held[0]!.invoiceId;
    const [crashed] = await claimDueInvoices(database.db, { claim: 'crashed-issuer', now: new Date(), until: later(invoiceLeaseMs()), limit: 1, ids: [id] });
    expect(crashed?.id).toBe(id);
    // The crashed issuer had reached Factus: the document exists there already.
    const merchant = openSettings((await getMerchant(database.db, crashed!.merchantId))!.einvoiceSecrets!, crashed!.merchantId);
    const first = await createEInvoiceProvider(merchant).issueInvoice((await import('@/test/einvoicing-drafts')).sampleInvoice({ reference: transactionId, number: null }));
    expect(await issueDueInvoices(database.db, { ids: [id] })).toMatchObject({ issued: 0 });
    expect(await issueDueInvoices(database.db, { ids: [id], now: later(invoiceLeaseMs() + 1000) })).toMatchObject({ issued: 1 });
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'ISSUED', attempts: 2, number: first.status === 'ISSUED' ? first.number : 'none' });
    expect(await finishInvoice(database.db, { id, claim: 'crashed-issuer' }, { status: 'REJECTED' })).toBeUndefined();
    expect(factusDocs(transactionId)).toHaveLength(1);
  });
});

describe('a void', () => {
  it('of an ISSUED invoice\'s charge gets a credit note citing its number and CUFE', async () => {
    const { transactionId } = await approvedCharge('factus');
    await deliveriesSettled();
    const invoice = await invoiceOf(transactionId);
    const txn = (await database.db.select().from(transactions).where(eq(transactions.id, transactionId)))[0]!;
    await recordVoid(database.db, txn);
    await deliveriesSettled();
    const note = (await invoicesOf(transactionId)).find((i) => i.kind === 'CREDIT_NOTE')!;
    expect(note).toMatchObject({ status: 'ISSUED', invoiceId: invoice.id, total: invoice.total, cufe: expect.stringMatching(/^[0-9a-f]{96}$/) });
    expect(note.cufe).not.toBe(invoice.cufe);
    const sent = factus.documents.find((d) => d.kind === 'CREDIT_NOTE' && d.reference === note.id)!;
    expect(sent.billNumber).toBe(invoice.number);
    expect((await rowOf(invoice.id)).status).toBe('ISSUED');
  });

  it('of an Alegra invoice gets a credit note in our own consecutive, citing the invoice', async () => {
    const { transactionId } = await approvedCharge('alegra');
    await deliveriesSettled();
    const txn = (await database.db.select().from(transactions).where(eq(transactions.id, transactionId)))[0]!;
    await recordVoid(database.db, txn);
    await deliveriesSettled();
    const [invoice, note] = await invoicesOf(transactionId);
    expect(invoice!.status).toBe('ISSUED');
    expect(note).toMatchObject({ kind: 'CREDIT_NOTE', status: 'ISSUED', number: 'NC1', callerNumber: 1 });
  });

  it('before issuance cancels the pending invoice, and nothing reaches the provider', async () => {
    const held = holdInvoiceHandOffs();
    const { transactionId } = await approvedCharge('factus');
    const txn = (await database.db.select().from(transactions).where(eq(transactions.id, transactionId)))[0]!;
    await recordVoid(database.db, txn);
    expect(await issueDueInvoices(database.db, { ids: [held[0]!.invoiceId] })).toMatchObject({ issued: 0 });
    expect(await invoicesOf(transactionId)).toEqual([expect.objectContaining({ status: 'CANCELLED', voidedAt: expect.any(Date) })]);
    expect(factusDocs(transactionId)).toEqual([]);
  });

  it('while an issuer is sending the invoice: issued after all, it is annulled by a credit note', async () => {
    const held = holdInvoiceHandOffs();
    const { transactionId } = await approvedCharge('factus');
    const id = held[0]!.invoiceId;
    factus.setLatency(300);
    const issuing = issueDueInvoices(database.db, { ids: [id] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const txn = (await database.db.select().from(transactions).where(eq(transactions.id, transactionId)))[0]!;
    await recordVoid(database.db, txn);
    expect(await issuing).toMatchObject({ issued: 1 });
    factus.setLatency(0);
    const notes = (await invoicesOf(transactionId)).filter((i: InvoiceRow) => i.kind === 'CREDIT_NOTE');
    expect(notes).toHaveLength(1);
    await issueDueInvoices(database.db, { ids: [notes[0]!.id] });
    expect(await rowOf(notes[0]!.id)).toMatchObject({ status: 'ISSUED', errors: [] });
  });
});
