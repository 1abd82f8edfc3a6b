import { and, eq, notInArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { merchants, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import type { PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, countingSandbox } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { chargeRenewal, findDueRenewals, renewalEventId } from './renewals';
import { runRenewalSweep } from './sweep';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const DAY = 86_400_000;
// 10:00 in Bogotá is 15:00 UTC.
const bogota = (isoDate: string) => new Date(`${isoDate}T15:00:00.000Z`);
const later = (date: Date, ms: number) => new Date(date.getTime() + ms);

/** The real sandbox, counting the charges that reach it. */

const paidPlan = (card: string, paidAt: Date, processor?: PaymentProcessor) => paidPlanOf(database.db, { card, paidAt, processor });

const renewalsOf = (planId: string) =>
  database.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.planId, planId), eq(transactions.kind, 'RENEWAL')))
    .orderBy(transactions.id);
const eventsOf = (planId: string) => database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId)).orderBy(webhookEvents.id);
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Only the plans of this test: others' due plans are moved out of the way first. */
async function onlyThese(planIds: string[]) {
  await database.db
    .update(subscriptionPlans)
    .set({ status: 'CANCELLED' })
    .where(and(eq(subscriptionPlans.status, 'ACTIVE'), notInArray(subscriptionPlans.id, planIds)));
}

describe('monthly renewals', () => {
  it('charges the saved card on the anchor day and moves on one calendar month, clamped, across a leap year', async () => {
    const { processor, calls } = countingSandbox(0);
    const link = await paidPlan(CARDS.approved, bogota('2028-01-31'));
    await onlyThese([link.planId]);
    const plan = await link.plan();
    expect(plan).toMatchObject({ status: 'ACTIVE', billingAnchorDay: 31, paymentMethodToken: expect.stringMatching(/^pm_sandbox_approve_/) });

    const expected = ['2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31'];
    expect(iso(plan.nextChargeDate)).toBe(bogota(expected[0]!).toISOString());
    for (let i = 0; i < expected.length - 1; i++) {
      const now = later(bogota(expected[i]!), 60_000);
      const summary = await runRenewalSweep(database.db, processor, { now });
      expect(summary).toMatchObject({ due: 1, approved: 1, cancelledPlanIds: [] });
      expect(iso((await link.plan()).nextChargeDate)).toBe(bogota(expected[i + 1]!).toISOString());
    }
    const renewals = await renewalsOf(link.planId);
    expect(renewals.map((t) => [t.status, t.amount, t.paymentMethodToken, t.chargeDate.toISOString()])).toEqual(
      expected.slice(0, 3).map((d) => ['APPROVED', plan.amount, plan.paymentMethodToken, later(bogota(d), 60_000).toISOString()]),
    );
    expect(renewals.every((t) => /^\d+(-\d+)+$/.test(t.gatewayTransactionId!))).toBe(true);
    expect(calls.charge).toBe(3);
    const events = await eventsOf(link.planId);
    expect(events.map((e) => e.type)).toEqual(Array(4).fill('subscription.charge.approved'));
    expect(JSON.parse(events[1]!.body)).toMatchObject({
      event: 'subscription.charge.approved',
      data: { subscriptionTransactionId: renewals[0]!.id, subscriptionPlanId: link.planId, status: 'APPROVED', transactionId: renewals[0]!.gatewayTransactionId },
    });
  });

  it('follows a non-leap February: Jan 31 → Feb 28 → Mar 31', async () => {
    const { processor } = countingSandbox(0);
    const link = await paidPlan(CARDS.approved, bogota('2027-01-31'));
    await onlyThese([link.planId]);
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2027-02-28').toISOString());
    await runRenewalSweep(database.db, processor, { now: later(bogota('2027-02-28'), 1) });
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2027-03-31').toISOString());
  });

  it('does nothing before the due time, and a sweep repeated for the same time charges nothing more', async () => {
    const { processor, calls } = countingSandbox(0);
    const link = await paidPlan(CARDS.approved, bogota('2027-05-10'));
    await onlyThese([link.planId]);
    expect(await runRenewalSweep(database.db, processor, { now: later(bogota('2027-06-10'), -1) })).toMatchObject({ due: 0 });
    const now = bogota('2027-06-10');
    expect(await runRenewalSweep(database.db, processor, { now })).toMatchObject({ due: 1, approved: 1 });
    expect(await runRenewalSweep(database.db, processor, { now })).toMatchObject({ due: 0, approved: 0 });
    expect(calls.charge).toBe(1);
    expect(await renewalsOf(link.planId)).toHaveLength(1);
  });

  it('charges each plan once when two sweeps run at the same time', async () => {
    const { processor, calls } = countingSandbox(0);
    const links = [];
    for (let i = 0; i < 12; i++) links.push(await paidPlan(CARDS.approved, bogota('2027-07-05')));
    await onlyThese(links.map((l) => l.planId));
    const now = later(bogota('2027-08-05'), 1000);
    const [a, b] = await Promise.all([
      runRenewalSweep(database.db, processor, { now, concurrency: 6 }),
      runRenewalSweep(database.db, processor, { now, concurrency: 6 }),
    ]);
    expect(a.approved + b.approved).toBe(12);
    expect(calls.charge).toBe(12);
    for (const link of links) expect(await renewalsOf(link.planId)).toHaveLength(1);
  });

  it('charges once when the same attempt reaches ten workers at once', async () => {
    const { processor, calls } = countingSandbox(0);
    const link = await paidPlan(CARDS.approved, bogota('2027-09-12'));
    await onlyThese([link.planId]);
    const now = bogota('2027-10-12');
    const [due] = (await findDueRenewals(database.db, now).next()).value!;
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => chargeRenewal(database.db, processor, due!, now)));
    expect(outcomes.filter((o) => o.result === 'APPROVED')).toHaveLength(1);
    expect(outcomes.filter((o) => o.result === 'APPROVED' || o.result === 'skipped' || o.result === 'in_progress')).toHaveLength(10);
    expect(calls.charge).toBe(1);
    expect(renewalEventId(due!)).toBe(`renewal-${link.planId}-${bogota('2027-10-12').getTime()}-0`);
  });

  it.each(['PAUSED', 'CANCELLED'] as const)('does not charge a plan %s between the sweep and its charge', async (status) => {
    const { processor, calls } = countingSandbox(0);
    const link = await paidPlan(CARDS.approved, bogota('2027-11-03'));
    await onlyThese([link.planId]);
    const now = bogota('2027-12-03');
    const [due] = (await findDueRenewals(database.db, now).next()).value!;
    await database.db.update(subscriptionPlans).set({ status }).where(eq(subscriptionPlans.id, link.planId));
    expect(await chargeRenewal(database.db, processor, due!, now)).toEqual({ planId: link.planId, result: 'skipped' });
    expect(calls.charge).toBe(0);
    expect(await renewalsOf(link.planId)).toEqual([]);
  });

  it('retries the 0341 card on days 1, 3 and 5, then cancels the plan, with four declined events (the ladder off)', async () => {
    const { processor, calls } = countingSandbox(0);
    const link = await paidPlan(CARDS.renewalsDecline, bogota('2027-03-20'));
    // With the ladder on, the last failure sends a renewal link instead (renewal-links.test.ts).
    await database.db.update(merchants).set({ renewalLadder: false }).where(eq(merchants.id, link.merchant.merchantId));
    await onlyThese([link.planId]);
    const due = bogota('2027-04-20');
    const sweep = (at: Date) => runRenewalSweep(database.db, processor, { now: at });

    for (const [day, next] of [
      [0, 1],
      [1, 3],
      [3, 5],
    ] as const) {
      expect(await sweep(later(due, day * DAY))).toMatchObject({ due: 1, declined: 1, cancelledPlanIds: [] });
      expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalFailures: next === 1 ? 1 : next === 3 ? 2 : 3 });
      expect(iso((await link.plan()).nextChargeDate)).toBe(later(due, next * DAY).toISOString());
      // Nothing happens between attempts.
      expect(await sweep(later(due, (next - 0.5) * DAY))).toMatchObject({ due: 0 });
    }
    expect(await sweep(later(due, 5 * DAY))).toMatchObject({ due: 1, declined: 1, cancelledPlanIds: [link.planId] });
    const plan = await link.plan();
    expect(plan.status).toBe('CANCELLED');
    expect(plan.cancelReason).toMatch(/Renewal failed 4 times.*insufficient_funds/);
    expect(await sweep(later(due, 40 * DAY))).toMatchObject({ due: 0 });

    const renewals = await renewalsOf(link.planId);
    expect(renewals.map((t) => [t.status, t.failureCode])).toEqual(Array(4).fill(['DECLINED', 'insufficient_funds']));
    expect(renewals.map((t) => t.chargeDate.getTime() - due.getTime())).toEqual([0, DAY, 3 * DAY, 5 * DAY]);
    expect(calls.charge).toBe(4);
    const declined = (await eventsOf(link.planId)).filter((e) => e.type === 'subscription.charge.declined');
    expect(declined.map((e) => JSON.parse(e.body).data.subscriptionTransactionId)).toEqual(renewals.map((t) => t.id));
  });

  it('after a late successful retry, bills the next period on the anchor day, not a month after the retry', async () => {
    const sandbox = createSandboxProcessor({ pendingMs: 0 });
    let declines = 1;
    const flaky: PaymentProcessor = {
      ...sandbox,
      charge: async (request) => (declines-- > 0 ? { status: 'DECLINED', gatewayTransactionId: '12341-1-1', declineReason: 'insufficient_funds' } : sandbox.charge(request)),
    };
    const link = await paidPlan(CARDS.approved, bogota('2027-01-31'));
    await onlyThese([link.planId]);
    await runRenewalSweep(database.db, flaky, { now: bogota('2027-02-28') });
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2027-03-01').toISOString());
    expect(await runRenewalSweep(database.db, flaky, { now: bogota('2027-03-01') })).toMatchObject({ approved: 1 });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalFailures: 0 });
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2027-03-31').toISOString());
  });

  it('a renewal the processor leaves PENDING is asked about again by the next sweep, not charged again', async () => {
    const slow = countingSandbox(60_000);
    const link = await paidPlan(CARDS.pendingApproved, bogota('2027-06-15'));
    await onlyThese([link.planId]);
    const due = bogota('2027-07-15');
    expect(await runRenewalSweep(database.db, slow.processor, { now: due })).toMatchObject({ pending: 1 });
    expect(iso((await link.plan()).nextChargeDate)).toBe(due.toISOString());
    expect(await runRenewalSweep(database.db, slow.processor, { now: later(due, 1000) })).toMatchObject({ pending: 1 });
    const settled = countingSandbox(0);
    expect(await runRenewalSweep(database.db, settled.processor, { now: later(due, 2000) })).toMatchObject({ approved: 1 });
    expect(slow.calls.charge + settled.calls.charge).toBe(1);
    expect((await renewalsOf(link.planId)).map((t) => t.status)).toEqual(['APPROVED']);
    expect(iso((await link.plan()).nextChargeDate)).toBe(bogota('2027-08-15').toISOString());
  });

  it('records a processor failure as ERROR, which is retried like a decline', async () => {
    const sandbox = createSandboxProcessor({ pendingMs: 0 });
    const down: PaymentProcessor = { ...sandbox, charge: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const link = await paidPlan(CARDS.approved, bogota('2027-02-10'));
    await onlyThese([link.planId]);
    expect(await runRenewalSweep(database.db, down, { now: bogota('2027-03-10') })).toMatchObject({ error: 1 });
    expect((await renewalsOf(link.planId)).map((t) => [t.status, t.failureCode])).toEqual([['ERROR', 'processor_error']]);
    expect((await eventsOf(link.planId)).map((e) => e.type)).toContain('subscription.charge.error');
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalFailures: 1 });
  });
});
