import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { merchants, transactions } from '@/db/schema';
import { cancelPlan, pausePlan, resumePlan } from '@/lib/plans/lifecycle';
import { CARDS, countingSandbox } from '@/test/checkout';
import { bogota, DAY_MS, later } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { paidPlan as paidPlanOf } from '@/test/factories';
import type { BillingInterval } from '@/lib/calendar/interval';
import { runRenewalSweep } from './sweep';

// Renewals of weekly and yearly plans (docs/billing.md#intervals), through the same sweep as monthly ones.

const DAY = DAY_MS;
const iso = (d: Date | null) => d?.toISOString() ?? null;
let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const paidPlan = (card: string, paidAt: Date, interval: BillingInterval) => paidPlanOf(database.db, { card, paidAt, plan: { interval }, onlyDue: true });

const renewalsOf = (planId: string) =>
  database.db.select().from(transactions).where(and(eq(transactions.planId, planId), eq(transactions.kind, 'RENEWAL'))).orderBy(transactions.id);

describe('interval renewals', () => {
  it('charges a weekly plan every 7 days', async () => {
    const { processor, calls } = countingSandbox(0);
    const link = await paidPlan(CARDS.approved, bogota('2027-01-03'), { unit: 'week', count: 1 });
    const expected = ['2027-01-10', '2027-01-17', '2027-01-24', '2027-01-31'];
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', billingAnchorDay: null });
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota(expected[0]!).toISOString());
    for (let i = 0; i < expected.length - 1; i++) {
      expect(await runRenewalSweep(database.db, processor, { now: later(bogota(expected[i]!), 60_000) })).toMatchObject({ due: 1, approved: 1 });
      expect(iso((await link.plan()).nextChargeDate)).toBe(bogota(expected[i + 1]!).toISOString());
    }
    expect(calls.charge).toBe(3);
  });

  it('charges a plan every 3 months on its anchor day, and a yearly one a year on, clamped', async () => {
    const { processor } = countingSandbox(0);
    const quarterly = await paidPlan(CARDS.approved, bogota('2027-11-30'), { unit: 'month', count: 3 });
    expect(iso((await quarterly.plan()).nextChargeDate)).toBe(bogota('2028-02-29').toISOString());
    await runRenewalSweep(database.db, processor, { now: bogota('2028-02-29') });
    expect(iso((await quarterly.plan()).nextChargeDate)).toBe(bogota('2028-05-30').toISOString());

    const yearly = await paidPlan(CARDS.approved, bogota('2028-02-29'), { unit: 'year', count: 1 });
    expect(iso((await yearly.plan()).nextChargeDate)).toBe(bogota('2029-02-28').toISOString());
    await runRenewalSweep(database.db, processor, { now: bogota('2029-02-28') });
    expect(iso((await yearly.plan()).nextChargeDate)).toBe(bogota('2030-02-28').toISOString());
  });

  it('retries a weekly plan 1, 3 and 3.5 days after the due date (half its period), then cancels it (the ladder off)', async () => {
    const { processor, calls } = countingSandbox(0);
    const link = await paidPlan(CARDS.renewalsDecline, bogota('2027-03-07'), { unit: 'week', count: 1 });
    // With the ladder on, a renewal link follows instead (renewal-links.test.ts).
    await database.db.update(merchants).set({ renewalLadder: false }).where(eq(merchants.id, link.merchant.merchantId));
    const due = bogota('2027-03-14');
    const offsets = [0, 1, 3, 3.5];
    for (const [i, offset] of offsets.entries()) {
      const summary = await runRenewalSweep(database.db, processor, { now: later(due, offset * DAY) });
      expect(summary).toMatchObject({ due: 1, declined: 1 });
      if (i < 3) expect(iso((await link.plan()).nextChargeDate)).toBe(later(due, offsets[i + 1]! * DAY).toISOString());
    }
    expect(await link.plan()).toMatchObject({ status: 'CANCELLED' });
    expect((await renewalsOf(link.planId)).map((t) => t.chargeDate.getTime() - due.getTime())).toEqual(offsets.map((d) => d * DAY));
    expect(calls.charge).toBe(4);
  });

  it('resumes a weekly plan on its weekday after today, never charging the paused weeks', async () => {
    const link = await paidPlan(CARDS.approved, bogota('2027-01-03'), { unit: 'week', count: 1 });
    const scope = { merchantId: link.merchant.merchantId, planId: link.planId };
    await pausePlan(database.db, scope);
    const resumed = await resumePlan(database.db, scope, bogota('2027-01-27'));
    expect(iso(resumed.nextChargeDate)).toBe(bogota('2027-01-31').toISOString());
    await cancelPlan(database.db, scope);
  });
});
