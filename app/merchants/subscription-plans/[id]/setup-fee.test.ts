import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { subscriptionPlans } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { payCheckout, payWithCard } from '@/lib/checkout/payments';
import { formCopy } from '@/lib/checkout/i18n';
import { methodsCopy } from '@/lib/checkout/methods-i18n';
import { loadCheckoutPage, loadCheckoutSession } from '@/lib/checkout/session';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { loadReceiptPdf } from '@/lib/receipts/receipt';
import { CARDS, cardForm } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { planRow, planTransactions, postLink } from '@/test/plans';
import { GET } from './route';

// Setup fee (docs/billing.md#setup-fee): charged once with the first payment, or at a trial's
// start, its own line on the receipt.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

const card = (number = CARDS.approved) => ({ instrument: { type: 'CARD' as const, card: parseCard(cardForm(number))! } });

async function pdfText(pdf: Buffer): Promise<string> {
  return (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text;
}

describe('a setup fee', () => {
  it('is charged once with the first payment, on its own receipt line, and never again', async () => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000, quantity: 5, setupFee: 2_500_000 });
    expect(res.status).toBe(200);
    const id = res.json.subscriptionPlanId as string;
    expect((await loadCheckoutSession(database.db, res.json.token)).amount).toBe(7_500_000);
    const paid = await payWithCard(database.db, sandbox, { token: res.json.token, card: parseCard(cardForm(CARDS.approved))! });
    expect(paid.status).toBe('APPROVED');
    const [first] = await planTransactions(database.db, id);
    expect(first).toMatchObject({ kind: 'INITIAL', amount: 7_500_000, setupFee: 2_500_000, quantity: 5, unitAmount: 1_000_000 });
    expect((await call(GET, { headers: merchant.headers, params: { id } })).json).toMatchObject({ amount: 1_000_000, quantity: 5, setupFee: 2_500_000 });

    const receipt = await pdfText((await loadReceiptPdf(database.db, { transactionId: first!.id, planId: id }))!.pdf);
    expect(receipt).toContain('Cargo fijo: 5 × $ 10.000');
    expect(receipt).toContain('Cargo de inscripción (una vez)');
    expect(receipt).toContain('$ 25.000 COP');
    expect(receipt).toContain('$ 75.000 COP');

    await runRenewalSweep(database.db, sandbox, { now: new Date((await planRow(database.db, id)).nextChargeDate!.getTime() + 1000) });
    expect((await planTransactions(database.db, id))[1]).toMatchObject({ kind: 'RENEWAL', amount: 5_000_000, setupFee: 0 });
  });

  it('is told apart on the hosted page: paid today with the seats, and not part of what each month authorizes', async () => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000, quantity: 5, setupFee: 2_500_000 });
    const { session } = await loadCheckoutPage(database.db, res.json.token);
    const form = formCopy('es', session);
    expect(form.pay).toBe('Pagar $ 75.000');
    expect(form.authorization).toBe('Al pagar, autoriza a Tienda de prueba a cobrar $ 50.000 cada mes a esta tarjeta hasta que cancele la suscripción.');
    expect(session).toMatchObject({ amount: 7_500_000, setupFee: 2_500_000 });
    expect(form.status.approved.text).toContain('le cobrará $ 50.000 cada mes');
    expect(methodsCopy('es', session).nequi).toMatchObject({ pay: 'Pagar $ 75.000 con Nequi', authorization: expect.stringContaining('a cobrar $ 50.000 cada mes') });

    // A single payment's one charge is all of it, the fee included.
    const single = await postLink(merchant, { amount: 1_000_000, setupFee: 2_500_000, modality: 'SINGLE' });
    const once = (await loadCheckoutPage(database.db, single.json.token)).session;
    expect(once).not.toHaveProperty('setupFee');
    expect(formCopy('es', once).authorization).toBe('Se hará un único cobro de $ 35.000 a esta tarjeta.');
  });

  it("is charged at a free trial's start, before the trial begins; the trial's end charges the seats only", async () => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000, setupFee: 2_500_000, trialDays: 7 });
    const id = res.json.subscriptionPlanId as string;
    const started = await payCheckout(database.db, sandbox, { token: res.json.token, payment: card(), lang: 'es' });
    expect(started.status).toBe('TRIALING');
    expect((await planTransactions(database.db, id)).map((t) => [t.kind, t.status, t.amount, t.setupFee])).toEqual([['SETUP_FEE', 'APPROVED', 2_500_000, 2_500_000]]);
    const plan = await planRow(database.db, id);
    await runRenewalSweep(database.db, sandbox, { now: new Date(plan.trialEndsAt!.getTime() + 1000) });
    expect((await planTransactions(database.db, id))[1]).toMatchObject({ kind: 'RENEWAL', status: 'APPROVED', amount: 1_000_000, setupFee: 0 });
    expect((await planRow(database.db, id)).status).toBe('ACTIVE');
  });

  it('leaves a trial unstarted when its fee is declined: the customer may try again', async () => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000, setupFee: 2_500_000, trialDays: 7 });
    const id = res.json.subscriptionPlanId as string;
    // This card's charges without the payer are declined: the processor here treats the fee as one.
    const declining: typeof sandbox = { ...sandbox, charge: (request) => sandbox.charge({ ...request, initiator: 'recurring' }) };
    const declined = await payCheckout(database.db, declining, { token: res.json.token, payment: card(CARDS.renewalsDecline), lang: 'es' });
    expect(declined.status).toBe('DECLINED');
    expect((await planRow(database.db, id)).status).toBe('PENDING_ACTIVATION');
    expect((await planTransactions(database.db, id)).map((t) => [t.kind, t.status])).toEqual([['SETUP_FEE', 'DECLINED']]);
    const started = await payCheckout(database.db, sandbox, { token: res.json.token, payment: card(), lang: 'es' });
    expect(started.status).toBe('TRIALING');
  });

  it('is ignored from a merchant on an older API version', async () => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000, setupFee: 2_500_000 }, { 'ServicePay-Version': '2026-11-26' });
    expect(res.status).toBe(200);
    expect((await planRow(database.db, res.json.subscriptionPlanId)).setupFee).toBeNull();
    const record = await call(GET, { headers: merchant.headers, params: { id: res.json.subscriptionPlanId } });
    expect(record.json).not.toHaveProperty('setupFee');
  });

  it.each([[0], [99], [1.5], ['2500000'], [-100], [100_000_000_000]])('setupFee %j is a 400 naming plan.setupFee, and creates nothing', async (setupFee) => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000, setupFee });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path: 'plan.setupFee' })]);
    expect(await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.merchantId, merchant.merchantId))).toEqual([]);
  });
});
