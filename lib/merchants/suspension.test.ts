import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { transactions } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { payWithCard } from '@/lib/checkout/payments';
import { loadCheckoutPage } from '@/lib/checkout/session';
import { parseCard } from '@/lib/processors/card';
import { CARDS, cardForm, countingSandbox, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { apiRefusal } from '@/test/http';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { updateMerchant } from './merchants';
import { merchantSuspended } from './suspension';

// A suspended merchant (INACTIVE) takes no payments (docs/operations.md#suspending-a-merchant):
// its links are unavailable, its due renewals are skipped, and reactivation resumes renewals with
// nothing charged for the suspended periods.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

// 10:00 in Bogotá is 15:00 UTC.
const bogota = (isoDate: string) => new Date(`${isoDate}T15:00:00.000Z`);
const later = (date: Date, ms: number) => new Date(date.getTime() + ms);
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Only this plan is due in this file's sweeps. */
const paidPlan = (paidAt: Date) => paidPlanOf(database.db, { paidAt, onlyDue: true });

const renewalsOf = (planId: string) => database.db.select().from(transactions).where(and(eq(transactions.planId, planId), eq(transactions.kind, 'RENEWAL')));

describe('a suspended merchant', () => {
  it('skips its due renewals; reactivated, renewals resume on the next due day and the suspended periods are never charged', async () => {
    const { processor, calls } = countingSandbox(0);
    const link = await paidPlan(bogota('2028-01-10'));
    const merchantId = link.merchant.merchantId;
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2028-02-10').toISOString());

    await updateMerchant(database.db, merchantId, { status: 'INACTIVE' }, undefined, bogota('2028-02-01'));
    expect(await merchantSuspended(database.db, merchantId)).toBe(true);
    for (const day of ['2028-02-10', '2028-02-11', '2028-03-10', '2028-03-15']) {
      const summary = await runRenewalSweep(database.db, processor, { now: later(bogota(day), 60_000) });
      expect(summary, day).toMatchObject({ due: 1, approved: 0, declined: 0, skipped: 1 });
    }
    expect(await renewalsOf(link.subscriptionPlanId)).toEqual([]);
    expect(calls.charge).toBe(0);
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalFailures: 0 });

    await updateMerchant(database.db, merchantId, { status: 'ACTIVE' }, undefined, bogota('2028-03-20'));
    expect(await merchantSuspended(database.db, merchantId)).toBe(false);
    // The first due day (the anchor, the 10th) after reactivation.
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2028-04-10').toISOString());
    expect((await runRenewalSweep(database.db, processor, { now: later(bogota('2028-03-20'), 60_000) })).due).toBe(0);

    const resumed = await runRenewalSweep(database.db, processor, { now: later(bogota('2028-04-10'), 60_000) });
    expect(resumed).toMatchObject({ due: 1, approved: 1 });
    const renewals = await renewalsOf(link.subscriptionPlanId);
    expect(renewals.map((t) => [t.status, t.amount, t.periodStart?.toISOString()])).toEqual([['APPROVED', (await link.plan()).amount, bogota('2028-04-10').toISOString()]]);
    expect(calls.charge).toBe(1);
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2028-05-10').toISOString());
  });

  it('setting ACTIVE on a merchant that was never suspended moves no plan: an overdue renewal is still charged', async () => {
    const { processor } = countingSandbox(0);
    const link = await paidPlan(bogota('2029-01-10'));
    await updateMerchant(database.db, link.merchant.merchantId, { status: 'ACTIVE' }, undefined, bogota('2029-02-20'));
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2029-02-10').toISOString());
    expect(await runRenewalSweep(database.db, processor, { now: bogota('2029-02-20') })).toMatchObject({ due: 1, approved: 1 });
  });

  it('its unpaid link shows unavailable and refuses a payment with a 409, recording nothing', async () => {
    const link = await createTestLink(database.db);
    await updateMerchant(database.db, link.merchant.merchantId, { status: 'INACTIVE' });
    expect(await loadCheckoutPage(database.db, link.token)).toMatchObject({ merchantActive: false, expired: false });
    const { processor, calls } = countingSandbox(0);
    const refused = await apiRefusal(payWithCard(database.db, processor, { token: link.token, card: parseCard(cardForm(CARDS.approved))! }));
    expect(refused).toMatchObject({ code: 'conflict', message: 'This merchant is not taking payments right now' });
    expect(calls.charge).toBe(0);
    expect(await database.db.select().from(transactions).where(eq(transactions.planId, link.subscriptionPlanId))).toEqual([]);
    expect((await link.plan()).status).toBe('PENDING_ACTIVATION');

    await updateMerchant(database.db, link.merchant.merchantId, { status: 'ACTIVE' });
    expect(await loadCheckoutPage(database.db, link.token)).toMatchObject({ merchantActive: true });
    expect((await payWithCard(database.db, processor, { token: link.token, card: parseCard(cardForm(CARDS.approved))! })).status).toBe('APPROVED');
  });
});
