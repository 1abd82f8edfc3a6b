import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as checkoutRoute } from '@/app/pay/[token]/buyer/route';
import { POST as manageRoute } from '@/app/manage/[token]/buyer/route';
import type { Database } from '@/db/client';
import { invoices } from '@/db/schema';
import { createManageLink } from '@/lib/auth/manage-links';
import { loadCheckoutPage } from '@/lib/checkout/session';
import { payWithCard } from '@/lib/checkout/payments';
import { loadManagePage } from '@/lib/customers/manage-page';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { factusDoubleAccount } from '@/test/factus-double';
import { call } from '@/test/http';
import { withFactusDouble } from '@/test/invoice-doubles';
import { factusSettings, turnEInvoicingOn } from '@/test/invoices';
import { holdWebhookHandOffs } from '@/test/webhook-queue';
import { buyerOf } from './documents';
import { readBuyerForm } from './buyer';

// "Factura a nombre de…" (docs/einvoicing.md#the-buyer): the hosted page's form saves the buyer on
// the plan before it is paid, so the first invoice carries it; the manage page's changes or removes
// it for later invoices. Each a plain form post answered 303 back to its page; a bad field comes
// back named, with nothing changed.

let database: Database;
const factus = withFactusDouble();
beforeAll(async () => {
  database = await useTestDatabase();
  holdWebhookHandOffs();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin', host: 'localhost:3000' };
const ACME = { taxIdType: 'NIT', taxIdNumber: '900559088', legalName: 'Empresa de Pruebas SAS' };

async function invoicingLink(eInvoicing = true) {
  const link = await createTestLink(database.db, { amount: 4_990_000 });
  if (eInvoicing) await turnEInvoicingOn(database.db, link.merchant.merchantId, factusSettings(factusDoubleAccount(factus())));
  return link;
}
const postCheckout = (token: string, fields: Record<string, string>, query = '') =>
  call(checkoutRoute, { method: 'POST', path: `/pay/${token}/buyer${query}`, headers: FORM, params: { token }, body: new URLSearchParams(fields).toString() });
const postManage = (token: string, fields: Record<string, string>) =>
  call(manageRoute, { method: 'POST', path: `/manage/${token}/buyer`, headers: FORM, params: { token }, body: new URLSearchParams(fields).toString() });
const pay = (token: string) => payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token, card: parseCard(cardForm(CARDS.approved))! });
const invoiceOf = async (transactionId: string) => (await database.db.select().from(invoices).where(and(eq(invoices.transactionId, transactionId), eq(invoices.kind, 'INVOICE'))))[0]!;

describe('readBuyerForm', () => {
  const read = (fields: Record<string, string>) => readBuyerForm((name) => fields[name] ?? '');

  it('reads a NIT without its digit, computing it, and tidies the name', () => {
    expect(read({ ...ACME, legalName: '  Empresa   de Pruebas SAS ' })).toEqual({ ok: true, buyer: { taxId: { type: 'NIT', number: '900559088', dv: 2 }, legalName: 'Empresa de Pruebas SAS' } });
  });

  it('refuses a wrong check digit saying the right one, and a missing name', () => {
    expect(read({ ...ACME, taxIdNumber: '900559088-5' })).toEqual({ ok: false, problem: 'check_digit', expected: 2 });
    expect(read({ ...ACME, legalName: '  ' })).toEqual({ ok: false, problem: 'name_required' });
    expect(read({ ...ACME, legalName: 'x'.repeat(201) })).toEqual({ ok: false, problem: 'name_long' });
    expect(read({ taxIdType: 'CC', taxIdNumber: '', legalName: 'Ana' })).toEqual({ ok: false, problem: 'required' });
  });
});

describe('POST /pay/{token}/buyer', () => {
  it('saves the buyer before the payment, and the first invoice is made out to it', async () => {
    const link = await invoicingLink();
    const res = await postCheckout(link.token, { ...ACME, intent: 'save' }, '?embed=1&lang=en');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/pay/${link.token}?lang=en&embed=1&buyer=saved#buyer`);
    expect((await loadCheckoutPage(database.db, link.token)).buyer).toEqual({ current: { taxId: { type: 'NIT', number: '900559088', dv: 2 }, legalName: 'Empresa de Pruebas SAS' } });

    const paid = await pay(link.token);
    await deliveriesSettled();
    const invoice = await invoiceOf(paid.subscriptionTransactionId!);
    expect(invoice.buyer).toEqual({ taxId: { type: 'NIT', number: '900559088', dv: 2 }, legalName: 'Empresa de Pruebas SAS', email: expect.any(String) });
    expect(invoice.status).toBe('ISSUED');
    const sent = factus().requests.find((r) => r.path === '/v2/bills/validate' && JSON.stringify(r.body).includes(paid.subscriptionTransactionId!));
    expect(sent?.body).toMatchObject({ customer: { identification_document_code: '31', identification: '900559088', dv: '2', company: 'Empresa de Pruebas SAS' } });
  });

  it('refuses a wrong check digit naming the right one, and changes nothing', async () => {
    const link = await invoicingLink();
    await postCheckout(link.token, ACME);
    const res = await postCheckout(link.token, { ...ACME, taxIdNumber: '900559088-9', legalName: 'Otra SAS' });
    expect(res.headers.get('location')).toBe(`/pay/${link.token}?buyer=check_digit&dv=2#buyer`);
    expect(buyerOf(await link.plan())).toMatchObject({ legalName: 'Empresa de Pruebas SAS' });
  });

  it('removes the buyer: the final consumer again', async () => {
    const link = await invoicingLink();
    await postCheckout(link.token, ACME);
    const res = await postCheckout(link.token, { intent: 'remove' });
    expect(res.headers.get('location')).toBe(`/pay/${link.token}?buyer=removed#buyer`);
    expect(buyerOf(await link.plan()).taxId).toBeNull();
  });

  it('is not offered, nor taken, when the merchant does not invoice, nor once the link is paid', async () => {
    const off = await invoicingLink(false);
    expect((await loadCheckoutPage(database.db, off.token)).buyer).toBeNull();
    expect((await postCheckout(off.token, ACME)).headers.get('location')).toBe(`/pay/${off.token}?buyer=unavailable#buyer`);
    expect((await off.plan()).customerTaxIdNumber).toBeNull();

    const paid = await invoicingLink();
    await pay(paid.token);
    expect((await loadCheckoutPage(database.db, paid.token)).buyer).toBeNull();
    expect((await postCheckout(paid.token, ACME)).headers.get('location')).toBe(`/pay/${paid.token}?buyer=unavailable#buyer`);
    expect((await paid.plan()).customerTaxIdNumber).toBeNull();
  });
});

describe('POST /manage/{token}/buyer', () => {
  async function paidWithManage() {
    const link = await invoicingLink();
    const paid = await pay(link.token);
    await deliveriesSettled();
    const manage = await createManageLink(database.db, await link.plan(), { source: 'merchant' });
    return { link, paid, token: new URL(manage.url).pathname.split('/').pop()! };
  }

  it('changes the buyer of later invoices; the one issued keeps its own', async () => {
    const { link, paid, token } = await paidWithManage();
    const res = await postManage(token, { taxIdType: 'CC', taxIdNumber: '1020304050', legalName: 'Ana Gómez', lang: 'en' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/manage/${token}?buyer=saved&lang=en#buyer`);
    expect(buyerOf(await link.plan())).toMatchObject({ taxId: { type: 'CC', number: '1020304050', dv: null }, legalName: 'Ana Gómez' });
    expect((await invoiceOf(paid.subscriptionTransactionId!)).buyer).toMatchObject({ taxId: null });
    const page = await loadManagePage(database.db, token, { chosenLang: null, confirmCancel: false });
    expect(page?.buyer).toEqual({ current: { taxId: { type: 'CC', number: '1020304050', dv: null }, legalName: 'Ana Gómez' } });

    expect((await postManage(token, { intent: 'remove' })).headers.get('location')).toBe(`/manage/${token}?buyer=removed#buyer`);
    expect(buyerOf(await link.plan()).taxId).toBeNull();
  });

  it('refuses a bad field by name and changes nothing; a post from another site is a 403', async () => {
    const { link, token } = await paidWithManage();
    await postManage(token, ACME);
    expect((await postManage(token, { taxIdType: 'CC', taxIdNumber: '01234', legalName: 'Ana' })).headers.get('location')).toBe(`/manage/${token}?buyer=cc#buyer`);
    expect((await postManage(token, { taxIdType: 'RUT', taxIdNumber: '900559088', legalName: 'Ana' })).headers.get('location')).toBe(`/manage/${token}?buyer=type#buyer`);
    const cross = await call(manageRoute, { method: 'POST', path: `/manage/${token}/buyer`, headers: { ...FORM, 'sec-fetch-site': 'cross-site' }, params: { token }, body: 'intent=remove' });
    expect(cross.status).toBe(403);
    expect(buyerOf(await link.plan())).toMatchObject({ taxId: { type: 'NIT', number: '900559088', dv: 2 }, legalName: 'Empresa de Pruebas SAS' });
  });
});
