import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { subscriptionPlans } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { payWithCard } from '@/lib/checkout/payments';
import { loadCheckoutSession } from '@/lib/checkout/session';
import { createPaymentLink } from '@/lib/plans/create-link';
import { createLinkBodySchema } from '@/lib/plans/schemas';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm } from '@/test/checkout';
import { bogota } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, linkBody } from '@/test/merchants';
import { planRow, planTransactions, postLink } from '@/test/plans';
import { GET } from './route';

// Billing day (docs/billing.md#billing-day): the first charge is prorated to the billing day, in
// Bogotá calendar days, and renewals fall on it.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

/** A COP 30.000 plan made and paid by card at `at`. */
async function paidAt(at: Date, plan: Record<string, unknown>) {
  const merchant = await createTestMerchant(database.db);
  const body = createLinkBodySchema.parse(linkBody({ plan: { amount: 3_000_000, ...plan } }));
  const link = await createPaymentLink(database.db, merchant.merchantId, body, { at });
  const session = await loadCheckoutSession(database.db, link.token, at);
  const paid = await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))!, now: at });
  expect(paid.status).toBe('APPROVED');
  return { merchant, id: link.subscriptionPlanId, sessionAmount: session.amount };
}

describe('a billing day', () => {
  it('prorates the first charge to the day, then renews on it at the full price', async () => {
    const { merchant, id, sessionAmount } = await paidAt(bogota('2026-12-10'), { billingDay: 1 });
    // 22 of December's 31 days, in whole pesos: the hosted page asked for the same.
    const [first] = await planTransactions(database.db, id);
    expect(first).toMatchObject({ kind: 'INITIAL', amount: 2_129_000 });
    expect(sessionAmount).toBe(2_129_000);
    expect(await planRow(database.db, id)).toMatchObject({ billingDay: 1, billingAnchorDay: 1, nextChargeDate: bogota('2027-01-01') });
    expect((await call(GET, { headers: merchant.headers, params: { id } })).json).toMatchObject({ billingDay: 1, nextChargeDate: bogota('2027-01-01').getTime() });

    await runRenewalSweep(database.db, sandbox, { now: new Date(bogota('2027-01-01').getTime() + 1000) });
    expect((await planTransactions(database.db, id))[1]).toMatchObject({ kind: 'RENEWAL', status: 'APPROVED', amount: 3_000_000 });
    expect((await planRow(database.db, id)).nextChargeDate).toEqual(bogota('2027-02-01'));
  });

  it('charges the full price when paid on the day itself, and a minimum term counts from the first full period', async () => {
    const { id } = await paidAt(bogota('2026-12-01'), { billingDay: 1 });
    expect((await planTransactions(database.db, id))[0]!.amount).toBe(3_000_000);
    expect((await planRow(database.db, id)).nextChargeDate).toEqual(bogota('2027-01-01'));

    const term = await paidAt(bogota('2026-12-10'), { billingDay: 1, minimumPeriods: 2 });
    expect((await planRow(database.db, term.id)).termEndsAt).toEqual(bogota('2027-03-01'));
  });

  it('on a yearly plan: renewals on that day each year, a short first period never below COP 1.500', async () => {
    const { id } = await paidAt(bogota('2026-12-10'), { billingDay: 15, interval: { unit: 'year', count: 1 } });
    expect((await planTransactions(database.db, id))[0]!.amount).toBe(150_000);
    expect((await planRow(database.db, id)).nextChargeDate).toEqual(bogota('2026-12-15'));
    await runRenewalSweep(database.db, sandbox, { now: new Date(bogota('2026-12-15').getTime() + 1000) });
    expect((await planTransactions(database.db, id))[1]!.amount).toBe(3_000_000);
    expect((await planRow(database.db, id)).nextChargeDate).toEqual(bogota('2027-12-15'));
  });

  it('is unknown to a merchant on an older version: ignored on creation, not shown', async () => {
    const merchant = await createTestMerchant(database.db);
    const old = { ...merchant.headers, 'ServicePay-Version': '2026-11-26' };
    const res = await postLink(merchant, { billingDay: 3 }, old);
    expect(res.status).toBe(200);
    expect((await planRow(database.db, res.json.subscriptionPlanId)).billingDay).toBeNull();
    expect((await call(GET, { headers: old, params: { id: res.json.subscriptionPlanId } })).json).not.toHaveProperty('billingDay');
  });
});

describe('bad input: a 400 naming plan.billingDay, and nothing is created', () => {

  it.each([
    [{ billingDay: 0 }],
    [{ billingDay: 29 }],
    [{ billingDay: 1.5 }],
    [{ billingDay: '1' }],
    [{ billingDay: 5, interval: { unit: 'week', count: 2 } }],
    [{ billingDay: 5, modality: 'SINGLE' }],
    [{ billingDay: 5, trialDays: 14 }],
  ])('%j', async (plan) => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, plan);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path: 'plan.billingDay' })]);
    expect(await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.merchantId, merchant.merchantId))).toEqual([]);
  });
});
