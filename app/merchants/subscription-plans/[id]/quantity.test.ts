import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { planFigures } from '@/db/queries/overview';
import { subscriptionPlans } from '@/db/schema';
import { advanceMerchantTestClock } from '@/lib/billing/test-clock';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm } from '@/test/checkout';
import { DAY_MS } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, type TestMerchant } from '@/test/merchants';
import { planRow, planTransactions, postLink } from '@/test/plans';
import { GET as status } from '../../plans/[subscriptionPlanId]/status/route';
import { GET, PATCH } from './route';

// Quantity (seats, docs/billing.md#quantity): `plan.amount` is the unit price, each charge takes
// unit × quantity, and a quantity change is charged as a price change is.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

const plansOf = (merchantId: string) => database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.merchantId, merchantId));

/** A 5-seat weekly plan of a fresh merchant, paid `daysAgo` days ago. */
async function seats({ quantity = 5, daysAgo = 2 } = {}) {
  const merchant = await createTestMerchant(database.db);
  const res = await postLink(merchant, { amount: 1_000_000, quantity, interval: { unit: 'week', count: 1 } });
  expect(res.status).toBe(200);
  const paid = await payWithCard(database.db, sandbox, { token: res.json.token, card: parseCard(cardForm(CARDS.approved))!, now: new Date(Date.now() - daysAgo * DAY_MS) });
  expect(paid.status).toBe('APPROVED');
  return { merchant, id: res.json.subscriptionPlanId as string };
}

const patch = (s: { merchant: TestMerchant; id: string }, body: unknown) => call(PATCH, { method: 'PATCH', headers: s.merchant.headers, params: { id: s.id }, body });

describe('a plan with seats', () => {
  it('charges unit × quantity first and at each renewal, and shows the unit price with its quantity', async () => {
    const s = await seats();
    const [first] = await planTransactions(database.db, s.id);
    expect(first).toMatchObject({ kind: 'INITIAL', amount: 5_000_000, quantity: 5, unitAmount: 1_000_000 });
    const record = await call(GET, { headers: s.merchant.headers, params: { id: s.id } });
    expect(record.json).toMatchObject({ amount: 1_000_000, quantity: 5 });
    const reply = await call(status, { headers: s.merchant.headers, params: { subscriptionPlanId: s.id } });
    expect(reply.json.plan).toMatchObject({ amount: 1_000_000, quantity: 5 });

    await runRenewalSweep(database.db, sandbox, { now: new Date((await planRow(database.db, s.id)).nextChargeDate!.getTime() + 1000) });
    expect((await planTransactions(database.db, s.id))[1]).toMatchObject({ kind: 'RENEWAL', status: 'APPROVED', amount: 5_000_000, quantity: 5, unitAmount: 1_000_000 });
    // The renewal records the card it charged, as the first payment saw it (issue 40, item 7).
    expect(first!.cardLast4).toBe('4242');
    expect((await planTransactions(database.db, s.id))[1]).toMatchObject({ cardBrand: first!.cardBrand, cardLast4: '4242' });
    // MRR: weekly × 52 / 12 of what each charge takes.
    expect((await planFigures(database.db, s.merchant.merchantId, new Date())).mrr).toBe(Math.round((5_000_000 * 52) / 12));
  });

  it('shows an older API version what each charge takes as amount, and no quantity', async () => {
    const s = await seats();
    for (const version of ['2026-11-26', '2026-11-20']) {
      const headers = { ...s.merchant.headers, 'ServicePay-Version': version };
      const record = await call(GET, { headers, params: { id: s.id } });
      expect(record.json.amount).toBe(5_000_000);
      expect(record.json).not.toHaveProperty('quantity');
      const reply = await call(status, { headers, params: { subscriptionPlanId: s.id } });
      expect(reply.json.plan.amount).toBe(5_000_000);
      expect(reply.json.plan).not.toHaveProperty('quantity');
    }
  });

  it('ignores quantity sent by a merchant on an older version: one seat', async () => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000, quantity: 5 }, { 'ServicePay-Version': '2026-11-26' });
    expect(res.status).toBe(200);
    expect((await plansOf(merchant.merchantId))[0]).toMatchObject({ quantity: 1, amount: 1_000_000 });
  });

  it('shows a plan of one seat exactly as before: no quantity field', async () => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000 });
    const record = await call(GET, { headers: merchant.headers, params: { id: res.json.subscriptionPlanId } });
    expect(record.json).not.toHaveProperty('quantity');
  });
});

describe('a quantity change', () => {
  it('now: charges the prorated difference of the new seats at once, then each charge takes them', async () => {
    const s = await seats({ daysAgo: 2 });
    const before = await planRow(database.db, s.id);
    const res = await patch(s, { quantity: 8, effective: 'now' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ amount: 1_000_000, quantity: 8 });
    const proration = (await planTransactions(database.db, s.id)).find((t) => t.kind === 'PRORATION')!;
    const ahead = (before.nextChargeDate!.getTime() - proration.chargeDate.getTime()) / (7 * DAY_MS);
    expect(proration).toMatchObject({ status: 'APPROVED', amount: Math.round((3_000_000 * ahead) / 100) * 100 });
    expect(await planRow(database.db, s.id)).toMatchObject({ quantity: 8, scheduledQuantity: null, scheduledAmount: null, nextChargeDate: before.nextChargeDate });
    await runRenewalSweep(database.db, sandbox, { now: new Date(before.nextChargeDate!.getTime() + 1000) });
    expect((await planTransactions(database.db, s.id)).find((t) => t.kind === 'RENEWAL')).toMatchObject({ amount: 8_000_000, quantity: 8 });
  });

  it("now on a merchant's test clock: prorated by the clock's time and dated on it", async () => {
    const s = await seats({ daysAgo: 0 });
    const before = await planRow(database.db, s.id);
    const at = new Date(before.nextChargeDate!.getTime() - 2 * DAY_MS);
    await advanceMerchantTestClock(database.db, sandbox, s.merchant.merchantId, at);
    expect((await patch(s, { quantity: 8, effective: 'now' })).status).toBe(200);
    // 2 of 7 days ahead of 3 more seats at $ 10.000: $ 8.571,43, whole pesos.
    expect((await planTransactions(database.db, s.id)).find((t) => t.kind === 'PRORATION')).toMatchObject({ status: 'APPROVED', amount: 857_100, chargeDate: at });
  });

  it('next_charge: keeps the seats until the next renewal, which charges the new ones', async () => {
    const s = await seats();
    const before = await planRow(database.db, s.id);
    const res = await patch(s, { quantity: 3 });
    expect(res.status).toBe(200);
    expect(res.json.quantity).toBe(5);
    expect(await planRow(database.db, s.id)).toMatchObject({ quantity: 5, scheduledQuantity: 3, scheduledAmount: 1_000_000, scheduledFrom: before.nextChargeDate });
    await runRenewalSweep(database.db, sandbox, { now: new Date(before.nextChargeDate!.getTime() + 1000) });
    expect((await planTransactions(database.db, s.id)).find((t) => t.kind === 'RENEWAL')).toMatchObject({ amount: 3_000_000, quantity: 3 });
    expect(await planRow(database.db, s.id)).toMatchObject({ quantity: 3, scheduledQuantity: null });
  });
});

describe('bad input: a 400 naming the field, and nothing is created or changed', () => {
  it.each([
    [{ quantity: 0 }, 'plan.quantity'],
    [{ quantity: -1 }, 'plan.quantity'],
    [{ quantity: 10_001 }, 'plan.quantity'],
    [{ quantity: 2.5 }, 'plan.quantity'],
    [{ quantity: '5' }, 'plan.quantity'],
    [{ quantity: 10_000, amount: 99_999_999_999 }, 'plan.quantity'],
  ])('link %j → %s', async (plan, path) => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { amount: 1_000_000, ...plan });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path })]);
    expect(await plansOf(merchant.merchantId)).toEqual([]);
  });

  it.each([
    [{ quantity: 0 }, 'quantity'],
    [{ quantity: 10_001, effective: 'next_charge' }, 'quantity'],
    [{ quantity: 'ocho' }, 'quantity'],
    [{ quantity: 3, effective: 'now' }, 'effective'],
    [{ quantity: 10_000, amount: 99_999_999_999 }, 'quantity'],
  ])('PATCH %j → %s', async (body, path) => {
    const s = await seats();
    const before = await planRow(database.db, s.id);
    const res = await patch(s, body);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path })]);
    expect(await planRow(database.db, s.id)).toEqual(before);
  });
});
