import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as manageReceipt } from '@/app/manage/[token]/receipts/[transactionId]/route';
import { GET as portalReceipt } from '@/app/portal/receipts/[transactionId]/route';
import type { Database } from '@/db/client';
import { merchants, transactions } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { createManageLink } from '@/lib/auth/manage-links';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { createPaymentLink } from '@/lib/plans/create-link';
import { createLinkBodySchema } from '@/lib/plans/schemas';
import { signUpVerified } from '@/test/portal-users';
import { getAuth } from '@/lib/portal/auth';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { linkBody } from '@/test/merchants';
import { type Receipt, renderReceiptPdf } from './pdf';
import { loadReceiptPdf } from './receipt';

// Receipt PDFs (docs/customers.md#receipts): real text, the customer's language, the same bytes for
// the same data, and found only within the plan or merchant they belong to.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

async function pdfText(pdf: Uint8Array | Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text;
}

const RECEIPT: Receipt = {
  lang: 'es',
  merchantName: 'Gimnasio Ñandú',
  merchantNit: '900123456-7',
  customer: { name: 'Ana Gómez', email: 'ana@example.com', idType: 'CC', idNumber: '1020304050' },
  description: 'Plan semanal',
  periodStart: new Date('2027-01-03T15:00:00Z'),
  periodEnd: new Date('2027-01-10T15:00:00Z'),
  chargeDate: new Date('2027-01-03T15:00:00Z'),
  listAmount: 2_990_000,
  discount: 598_000,
  amount: 2_392_000,
  method: { type: 'CARD', brand: 'VISA', last4: '4242' },
  lines: [
    { kind: 'fixed', quantity: 1, unitAmount: 2_990_000, amount: 2_990_000 },
    { kind: 'discount', amount: -598_000 },
  ],
  transactionId: 'txn_0000000000000000000000ab',
  gatewayTransactionId: '48213-1763740800123-00917',
};

describe('renderReceiptPdf', () => {
  it('renders the same bytes for the same data, and other bytes for other data', async () => {
    const [a, b, other] = await Promise.all([renderReceiptPdf(RECEIPT), renderReceiptPdf({ ...RECEIPT }), renderReceiptPdf({ ...RECEIPT, amount: 2_392_100 })]);
    expect(a.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    expect(Buffer.compare(a, b)).toBe(0);
    expect(Buffer.compare(a, other)).not.toBe(0);
  });

  it('lists the seats when a charge has more than one, and no line for a single one', async () => {
    const seats = await pdfText(
      await renderReceiptPdf({ ...RECEIPT, lines: [{ kind: 'fixed', quantity: 5, unitAmount: 598_000, amount: 2_990_000 }, { kind: 'discount', amount: -598_000 }] }),
    );
    expect(seats).toContain('Cargo fijo: 5 × $ 5.980');
    expect(await pdfText(await renderReceiptPdf(RECEIPT))).not.toContain('Cargo fijo');
  });

  it('holds its facts as text, in Spanish first', async () => {
    const text = await pdfText(await renderReceiptPdf(RECEIPT));
    for (const fact of [
      'Recibo de pago',
      'Gimnasio Ñandú',
      'NIT 900123456-7',
      'Ana Gómez · ana@example.com · CC 1020304050',
      'Plan semanal',
      '3 de enero de 2027 – 10 de enero de 2027',
      'Precio de lista',
      '$ 29.900 COP',
      'Descuento',
      '-$ 5.980 COP',
      'Valor cobrado',
      '$ 23.920 COP',
      'VISA terminada en 4242',
      'txn_0000000000000000000000ab',
      '48213-1763740800123-00917',
    ])
      expect(text).toContain(fact);
  });

  it('speaks the customer’s language, and leaves out what is not set', async () => {
    const text = await pdfText(await renderReceiptPdf({ ...RECEIPT, lang: 'en', merchantNit: null, discount: 0, listAmount: 2_392_000, method: { type: 'NEQUI', brand: null, last4: null } }));
    expect(text).toContain('Payment receipt');
    expect(text).toContain('January 3, 2027 – January 10, 2027');
    expect(text).toMatch(/Discount\s+none/);
    expect(text).toMatch(/Payment method\s+Nequi/);
    expect(text).not.toMatch(/NIT|Recibo|Descuento/);
  });
});

describe('receipts of real charges', () => {
  async function paid(card = CARDS.approved) {
    const link = await createTestLink(database.db);
    const payment = await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(card))! });
    const plan = await link.plan();
    return { link, plan, transactionId: payment.subscriptionTransactionId };
  }

  it('finds an APPROVED charge within its plan and merchant only, with the merchant’s NIT', async () => {
    const { link, plan, transactionId } = await paid();
    await database.db.update(merchants).set({ nit: '900123456-7' }).where(eq(merchants.id, link.merchant.merchantId));
    const own = await loadReceiptPdf(database.db, { transactionId, planId: plan.id });
    expect(own?.fileName).toBe(`recibo-${transactionId}.pdf`);
    const text = await pdfText(own!.pdf);
    expect(text).toContain('$ 1.500 COP');
    expect(text).toContain('NIT 900123456-7');
    expect(text).toContain(transactionId);
    const byMerchant = await loadReceiptPdf(database.db, { transactionId, merchantId: link.merchant.merchantId });
    expect(Buffer.compare(byMerchant!.pdf, own!.pdf)).toBe(0);

    const other = await paid();
    expect(await loadReceiptPdf(database.db, { transactionId, planId: other.plan.id })).toBeNull();
    expect(await loadReceiptPdf(database.db, { transactionId, merchantId: other.link.merchant.merchantId })).toBeNull();
  });

  it('has none for a declined charge', async () => {
    const { plan } = await paid(CARDS.declined);
    const [declined] = await database.db.select().from(transactions).where(eq(transactions.planId, plan.id));
    expect(declined?.status).toBe('DECLINED');
    expect(await loadReceiptPdf(database.db, { transactionId: declined!.id, planId: plan.id })).toBeNull();
  });

  it('downloads from the manage page: the plan’s own receipts only, 404 for anything else', async () => {
    const { plan, transactionId } = await paid();
    const other = await paid();
    const { url } = await database.db.transaction((tx) => createManageLink(tx, plan, { source: 'merchant' }));
    const token = url.split('/manage/')[1]!;
    const get = (t: string, id: string, query = '') =>
      manageReceipt(new Request(`http://localhost/manage/${t}/receipts/${id}${query}`), { params: Promise.resolve({ token: t, transactionId: id }) });

    const res = await get(token, transactionId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="recibo-${transactionId}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(await pdfText(new Uint8Array(await res.arrayBuffer()))).toContain('Valor cobrado');
    const english = await get(token, transactionId, '?lang=en');
    expect(await pdfText(new Uint8Array(await english.arrayBuffer()))).toContain('Amount charged');

    expect((await get(token, other.transactionId)).status).toBe(404);
    expect((await get('mng_' + '0'.repeat(40), transactionId)).status).toBe(404);
    expect((await get('not-a-token', transactionId)).status).toBe(404);
  });

  it('downloads from the portal: the signed-in merchant’s receipts only', async () => {
    const { transactionId } = await paid();
    const email = `owner-${Date.now()}@example.com`;
    const merchantId = await signUpVerified(database.db, { merchantName: 'Otra tienda', name: 'Luis', email, password: 'correct horse 42' }, new Headers({ 'x-forwarded-for': '10.9.9.1' }));
    const { headers } = await (await getAuth()).api.signInEmail({ body: { email, password: 'correct horse 42' }, returnHeaders: true });
    const cookie = headers.get('set-cookie')!.split(';')[0]!;
    const get = (h: Record<string, string>) =>
      portalReceipt(new Request(`http://localhost/portal/receipts/${transactionId}`, { headers: h }), { params: Promise.resolve({ transactionId }) });
    expect((await get({})).status).toBe(401);
    // Another merchant's charge: not found for this merchant.
    expect((await get({ cookie })).status).toBe(404);
    const body = createLinkBodySchema.parse(linkBody());
    const own = await createPaymentLink(database.db, merchantId, body);
    const payment = await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: own.token, card: parseCard(cardForm(CARDS.approved))! });
    const id = payment.subscriptionTransactionId;
    const mine = await portalReceipt(new Request(`http://localhost/portal/receipts/${id}`, { headers: { cookie } }), { params: Promise.resolve({ transactionId: id }) });
    expect(mine.status).toBe(200);
    expect(await pdfText(new Uint8Array(await mine.arrayBuffer()))).toContain('Otra tienda');
  });
});
