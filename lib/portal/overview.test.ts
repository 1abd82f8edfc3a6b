import { InngestTestEngine } from '@inngest/test';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '@/db/client';
import { listPlans, listTransactions } from '@/db/queries/activity';
import { insertTransaction } from '@/db/queries/transactions';
import { createCoupon } from '@/lib/coupons/coupons';
import { discountFor } from '@/lib/coupons/discount';
import { createId } from '@/lib/ids';
import { compactOverviewFunction } from '@/lib/inngest/functions/retention';
import { createPaymentLink } from '@/lib/plans/create-link';
import { createLinkBodySchema } from '@/lib/plans/schemas';
import { useTestDatabase } from '@/test/database';
import { createTestMerchant, linkBody } from '@/test/merchants';
import { compactOverviewPieces, getOverview } from './overview';

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

const NOW = new Date('2027-06-15T15:00:00.000Z'); // 10:00 in Bogotá
const DAY = 86_400_000;

async function plan(
  merchantId: string,
  ref: string,
  amount: number,
  set: { status?: string; failures?: number; next?: Date; updated?: Date; email?: string; interval?: { unit: string; count: number } } = {},
) {
  const body = createLinkBodySchema.parse(linkBody({ plan: { externalReference: ref, amount, ...(set.interval && { interval: set.interval }) }, ...(set.email && { customer: { phone: '+573001234567', email: set.email } }) }));
  const { subscriptionPlanId: id } = await db.transaction((tx) => createPaymentLink(tx, merchantId, body));
  await db.execute(sql`update subscription_plans set status = ${set.status ?? 'PENDING_ACTIVATION'}, renewal_failures = ${set.failures ?? 0},
    next_charge_date = ${set.next?.toISOString() ?? null}, updated_at = ${(set.updated ?? NOW).toISOString()}, created_at = ${new Date(NOW.getTime() - DAY).toISOString()} where id = ${id}`);
  return id;
}

async function charge(planId: string, merchantId: string, status: 'APPROVED' | 'DECLINED' | 'ERROR' | 'VOIDED', amount: number, at: Date) {
  await insertTransaction(db, { id: createId('txn', at.getTime()), planId, merchantId, kind: 'RENEWAL', status, amount, chargeDate: at });
}

describe('getOverview', () => {
  it('counts free trials apart: not in MRR, with what they would add brought to a month (docs/billing.md#trials)', async () => {
    const m = await createTestMerchant(db);
    await plan(m.merchantId, 't0', 150000, { status: 'ACTIVE', next: new Date(NOW.getTime() + DAY) });
    await plan(m.merchantId, 't1', 1200000, { status: 'TRIALING', next: new Date(NOW.getTime() + 5 * DAY), interval: { unit: 'year', count: 1 } });
    await plan(m.merchantId, 't2', 300000, { status: 'TRIALING', next: new Date(NOW.getTime() + 5 * DAY), interval: { unit: 'week', count: 1 } });
    const o = await getOverview(db, m.merchantId, { now: NOW });
    // 1.200.000 / 12 + 300.000 × 52 / 12 = 100.000 + 1.300.000.
    expect(o).toMatchObject({ mrr: 150000, activePlans: 1, trialingPlans: 2, trialMrr: 1_400_000 });
  });

  it('computes the figures from the merchant’s plans and charges only', async () => {
    const a = await createTestMerchant(db);
    const b = await createTestMerchant(db);
    const p1 = await plan(a.merchantId, 'r1', 150000, { status: 'ACTIVE', next: new Date(NOW.getTime() + 3 * DAY) });
    const p2 = await plan(a.merchantId, 'r2', 250000, { status: 'ACTIVE', failures: 2, next: new Date(NOW.getTime() + DAY) });
    await plan(a.merchantId, 'r3', 990000, { status: 'CANCELLED', updated: new Date(NOW.getTime() - 2 * DAY) });
    await plan(a.merchantId, 'r4', 500000, { status: 'CANCELLED', updated: new Date('2027-05-20T12:00:00Z') }); // last month
    await plan(a.merchantId, 'r5', 70000, { status: 'PAUSED' });
    await plan(b.merchantId, 'r1', 999900, { status: 'ACTIVE', next: new Date(NOW.getTime() + DAY) });

    await charge(p1, a.merchantId, 'APPROVED', 150000, new Date(NOW.getTime() - 1 * DAY));
    await charge(p2, a.merchantId, 'APPROVED', 250000, new Date(NOW.getTime() - 1 * DAY + 60_000));
    await charge(p2, a.merchantId, 'DECLINED', 250000, new Date(NOW.getTime() - 2 * DAY));
    await charge(p2, a.merchantId, 'VOIDED', 250000, new Date(NOW.getTime() - 3 * DAY));
    await charge(p1, a.merchantId, 'APPROVED', 150000, new Date(NOW.getTime() - 40 * DAY)); // outside 30 days, inside 90

    const o = await getOverview(db, a.merchantId, { now: NOW, days: 30 });
    expect(o).toMatchObject({ mrr: 400000, activePlans: 2, cancelledThisMonth: 1, atRisk: 1, revenue: 400000 });
    expect(o.newThisMonth).toBe(5);
    expect(o.churnRate).toBeCloseTo(1 / 3);
    expect(o.approvalRate).toBeCloseTo(2 / 3);
    expect(o.daily).toHaveLength(30);
    expect(o.daily.at(-1)!.day).toBe('2027-06-15');
    expect(o.daily.find((d) => d.day === '2027-06-14')).toEqual({ day: '2027-06-14', revenue: 400000, approved: 2, failed: 0 });
    expect(o.failing.map((r) => [r.id, r.renewalFailures])).toEqual([[p2, 2]]);
    expect(o.upcoming.map((r) => r.id)).toEqual([p1]);

    const ninety = await getOverview(db, a.merchantId, { now: NOW, days: 90 });
    expect(ninety.daily).toHaveLength(90);
    expect(ninety.revenue).toBe(550000);
  });

  it('brings every interval to a month in MRR: weekly × 52 / 12, yearly / 12, divided by the count, rounded once', async () => {
    const a = await createTestMerchant(db);
    const active = { status: 'ACTIVE', next: new Date(NOW.getTime() + DAY) };
    await plan(a.merchantId, 'w1', 100_000, { ...active, interval: { unit: 'week', count: 1 } }); // 433 333.33…
    await plan(a.merchantId, 'w2', 100_000, { ...active, interval: { unit: 'week', count: 2 } }); // 216 666.66…
    await plan(a.merchantId, 'm3', 2_990_000, { ...active, interval: { unit: 'month', count: 3 } }); // 996 666.66…
    await plan(a.merchantId, 'y1', 1_200_000, { ...active, interval: { unit: 'year', count: 1 } }); // 100 000
    await plan(a.merchantId, 'm1', 150_000, active);
    await plan(a.merchantId, 'paused', 150_000, { status: 'PAUSED', interval: { unit: 'week', count: 1 } });
    const { mrr } = await getOverview(db, a.merchantId, { now: NOW });
    expect(mrr).toBe(Math.round((100_000 * 52) / 12 + (100_000 * 52) / 24 + 2_990_000 / 3 + 1_200_000 / 12 + 150_000));
  });

  it('counts MRR net of coupons while their periods last, as the charges take them (lib/coupons/discount.ts)', async () => {
    const a = await createTestMerchant(db);
    const active = { status: 'ACTIVE', next: new Date(NOW.getTime() + DAY) };
    const weekly = await plan(a.merchantId, 'w20', 2_990_000, { ...active, interval: { unit: 'week', count: 1 } });
    const odd = await plan(a.merchantId, 'm15', 123_457, active);
    const flat = await plan(a.merchantId, 'flat', 150_000, active);
    const used = await plan(a.merchantId, 'used', 200_000, active);
    const terms = [
      [weekly, { discountPercent: 20, discountAmount: null, discountPeriods: 3, discountPeriodsUsed: 1 }],
      [odd, { discountPercent: 15, discountAmount: null, discountPeriods: null, discountPeriodsUsed: 7 }],
      [flat, { discountPercent: null, discountAmount: 149_990, discountPeriods: null, discountPeriodsUsed: 0 }],
      [used, { discountPercent: 50, discountAmount: null, discountPeriods: 1, discountPeriodsUsed: 1 }],
    ] as const;
    const coupon = await createCoupon(db, a.merchantId, { percentOff: 10, duration: 'forever' });
    for (const [id, t] of terms) {
      await db.execute(sql`update subscription_plans set coupon_id = ${coupon.id}, discount_percent = ${t.discountPercent}, discount_amount = ${t.discountAmount},
        discount_periods = ${t.discountPeriods}, discount_periods_used = ${t.discountPeriodsUsed} where id = ${id}`);
    }
    const net = (amount: number, t: (typeof terms)[number][1]) => amount - discountFor(t, amount);
    const { mrr, upcoming } = await getOverview(db, a.merchantId, { now: NOW });
    expect([net(2_990_000, terms[0][1]), net(123_457, terms[1][1]), net(150_000, terms[2][1]), net(200_000, terms[3][1])]).toEqual([2_392_000, 104_938, 100, 200_000]);
    expect(mrr).toBe(Math.round((2_392_000 * 52) / 12 + 104_938 + 100 + 200_000));
    // The upcoming renewals say what each will charge, net of its coupon as MRR counts it (they said the list price).
    expect(Object.fromEntries(upcoming.map((r) => [r.id, r.amount]))).toEqual({ [weekly]: 2_392_000, [odd]: 104_938, [flat]: 100, [used]: 200_000 });
  });

  it('counts a charge in the Bogotá day it was made (UTC-5), not the UTC day', async () => {
    const a = await createTestMerchant(db);
    const p = await plan(a.merchantId, 'late', 150000, { status: 'ACTIVE' });
    await charge(p, a.merchantId, 'APPROVED', 10000, new Date('2027-06-15T04:59:59Z')); // 23:59:59 on the 14th in Bogotá
    await charge(p, a.merchantId, 'APPROVED', 20000, new Date('2027-06-15T05:00:00Z')); // 00:00 on the 15th
    const { daily } = await getOverview(db, a.merchantId, { now: NOW });
    expect(daily.slice(-2).map((d) => [d.day, d.revenue])).toEqual([
      ['2027-06-14', 10000],
      ['2027-06-15', 20000],
    ]);
  });

  it('answers zeros and no rates for a merchant with nothing yet', async () => {
    const a = await createTestMerchant(db);
    const o = await getOverview(db, a.merchantId, { now: NOW });
    expect(o).toMatchObject({ mrr: 0, activePlans: 0, revenue: 0, churnRate: null, approvalRate: null, failing: [], upcoming: [] });
    expect(o.daily.every((d) => d.revenue === 0)).toBe(true);
  });

  it('keeps its kept figures equal to the rows through bulk changes, deletions and two folds at once', async () => {
    const a = await createTestMerchant(db);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await plan(a.merchantId, `k${i}`, 100000 + i * 1000, { status: 'ACTIVE', next: new Date(NOW.getTime() + DAY) }));
    for (const [i, id] of ids.entries()) await charge(id, a.merchantId, i % 2 ? 'APPROVED' : 'DECLINED', 100000 + i * 1000, new Date(NOW.getTime() - i * DAY));
    // What the pieces must add up to, counted from the rows themselves.
    const counted = async () => {
      const [row] = await queryRows<Record<string, number>>(db, sql`select
        (select count(*) from subscription_plans where merchant_id = ${a.merchantId} and status = 'ACTIVE')::int as "activePlans",
        (select count(*) from subscription_plans where merchant_id = ${a.merchantId} and status = 'ACTIVE' and renewal_failures > 0)::int as "atRisk",
        (select coalesce(sum(amount * quantity), 0) from subscription_plans where merchant_id = ${a.merchantId} and status = 'ACTIVE')::int as "mrr",
        (select coalesce(sum(amount), 0) from transactions where merchant_id = ${a.merchantId} and status = 'APPROVED')::int as "revenue"`);
      return row!;
    };
    const kept = async () => {
      const o = await getOverview(db, a.merchantId, { now: NOW, days: 30 });
      return { activePlans: o.activePlans, atRisk: o.atRisk, mrr: o.mrr, revenue: o.revenue };
    };
    expect(await kept()).toEqual(await counted());

    await db.execute(sql`update subscription_plans set renewal_failures = 1, amount = amount + 500 where merchant_id = ${a.merchantId} and external_reference in ('k0', 'k1', 'k2')`);
    await db.execute(sql`update subscription_plans set status = 'CANCELLED' where merchant_id = ${a.merchantId} and external_reference = 'k3'`);
    await db.execute(sql`update transactions set status = 'APPROVED' where merchant_id = ${a.merchantId} and status = 'DECLINED'`);
    await db.execute(sql`update transactions set status = 'VOIDED' where plan_id = ${ids[1]!}`);
    await db.execute(sql`delete from transactions where plan_id = ${ids[4]!}`);
    expect(await kept()).toEqual(await counted());

    const before = await kept();
    await Promise.all([compactOverviewPieces(db), compactOverviewPieces(db)]);
    expect(await kept()).toEqual(before);
    // The minute's fold as Inngest runs it: the folded piece and a new one become one.
    await db.execute(sql`update subscription_plans set renewal_failures = 0 where merchant_id = ${a.merchantId} and external_reference = 'k0'`);
    const { result } = await new InngestTestEngine({ function: compactOverviewFunction }).execute();
    expect(result).toMatchObject({ deleted: expect.any(Number) });
    expect(await kept()).toEqual(await counted());
    const [pieces] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from overview_plan_pieces where merchant_id = ${a.merchantId}`);
    expect(pieces!.n).toBe(1);
  });
});

describe('portal searches', () => {
  it('finds plans and transactions by e-mail (any case), reference and id, for the merchant only', async () => {
    const a = await createTestMerchant(db);
    const b = await createTestMerchant(db);
    const p = await plan(a.merchantId, 'order-9', 150000, { status: 'ACTIVE', email: 'Luisa@Example.com' });
    await plan(a.merchantId, 'order-10', 150000, { email: 'otro@example.com' });
    await plan(b.merchantId, 'order-9', 150000, { email: 'luisa@example.com' });
    await charge(p, a.merchantId, 'APPROVED', 150000, NOW);

    for (const search of ['luisa@example.com', 'order-9', p]) {
      expect((await listPlans(db, a.merchantId, { search }, 10)).plans.map((x) => x.id), search).toEqual([p]);
      expect((await listTransactions(db, a.merchantId, { search }, 10)).transactions.map((x) => x.planId), search).toEqual([p]);
    }
    expect((await listPlans(db, a.merchantId, { search: 'nadie@example.com' }, 10)).plans).toEqual([]);
    expect((await listTransactions(db, a.merchantId, { status: 'DECLINED' }, 10)).transactions).toEqual([]);
  });
});
