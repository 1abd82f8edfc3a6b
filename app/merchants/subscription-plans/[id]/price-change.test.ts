import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { emails, merchants, transactions, webhookEvents } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { DAY_MS } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { POST as cancel } from './cancel/route';
import { POST as pause } from './pause/route';
import { PATCH } from './route';
import { expectRefusedUnchanged } from '@/test/refusals';

// PATCH /merchants/subscription-plans/{id} (docs/billing.md#price-changes).

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

async function paidPlan({ card = CARDS.approved, daysAgo = 2, interval = { unit: 'week', count: 1 } } = {}) {
  const link = await paidPlanOf(database.db, { plan: { amount: 1_000_000, interval }, card, paidAt: new Date(Date.now() - daysAgo * DAY_MS), processor: sandbox });
  await database.db
    .update(merchants)
    .set({ webhookEventTypes: ['subscription.charge.approved', 'subscription.updated'] })
    .where(eq(merchants.id, link.merchant.merchantId));
  return link;
}
type Link = Awaited<ReturnType<typeof paidPlan>>;

const patch = (link: Link, body: unknown) => call(PATCH, { method: 'PATCH', headers: link.merchant.headers, params: { id: link.subscriptionPlanId }, body });
const emailsOf = (planId: string, kind: 'price_change') => database.db.select().from(emails).where(and(eq(emails.planId, planId), eq(emails.kind, kind)));
const eventsOf = (planId: string) => database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId)).orderBy(webhookEvents.id);
const txnsOf = (planId: string) => database.db.select().from(transactions).where(eq(transactions.planId, planId)).orderBy(transactions.id);

describe('a price change from the next charge', () => {
  it('keeps the price until the next renewal, e-mails the customer at once, and charges the new price from then', async () => {
    const link = await paidPlan();
    const before = await link.plan();
    const res = await patch(link, { amount: 1_200_000, description: 'Plan semanal plus' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ amount: 1_000_000, description: before.description });
    expect(await link.plan()).toMatchObject({ scheduledAmount: 1_200_000, scheduledDescription: 'Plan semanal plus', scheduledFrom: before.nextChargeDate });

    const [mail] = await emailsOf(link.subscriptionPlanId, 'price_change');
    expect(mail!.text).toContain('pasa de $ 10.000 a $ 12.000 cada semana');
    expect(mail!.text).toContain(new Intl.DateTimeFormat('es-CO', { dateStyle: 'long', timeZone: 'America/Bogota' }).format(before.nextChargeDate!));
    const updated = (await eventsOf(link.subscriptionPlanId)).filter((e) => e.type === 'subscription.updated');
    expect(updated.map((e) => JSON.parse(e.body).data.change)).toEqual([
      { amount: 1_200_000, description: 'Plan semanal plus', effective: 'next_charge', effectiveAt: before.nextChargeDate!.getTime() },
    ]);

    await runRenewalSweep(database.db, sandbox, { now: new Date(before.nextChargeDate!.getTime() + 1000) });
    const renewal = (await txnsOf(link.subscriptionPlanId)).find((t) => t.kind === 'RENEWAL');
    expect(renewal).toMatchObject({ status: 'APPROVED', amount: 1_200_000 });
    expect(await link.plan()).toMatchObject({ amount: 1_200_000, description: 'Plan semanal plus', scheduledAmount: null, scheduledFrom: null });
  });

  it('applies at once to a plan never charged, and to a paused plan from its next charge', async () => {
    const pending = await createTestLink(database.db, { amount: 1_000_000 });
    const res = await call(PATCH, { method: 'PATCH', headers: pending.merchant.headers, params: { id: pending.subscriptionPlanId }, body: { amount: 900_000 } });
    expect(res.status).toBe(200);
    expect(res.json.amount).toBe(900_000);

    const link = await paidPlan();
    await call(pause, { method: 'POST', headers: link.merchant.headers, params: { id: link.subscriptionPlanId } });
    expect((await patch(link, { amount: 800_000 })).status).toBe(200);
    expect(await link.plan()).toMatchObject({ status: 'PAUSED', amount: 1_000_000, scheduledAmount: 800_000 });
  });
});

describe('a price increase now', () => {
  it('charges the prorated difference for the rest of the period at once, then applies the price', async () => {
    const link = await paidPlan({ daysAgo: 2 });
    const before = await link.plan();
    const res = await patch(link, { amount: 1_700_000, effective: 'now' });
    expect(res.status).toBe(200);
    expect(res.json.amount).toBe(1_700_000);
    const proration = (await txnsOf(link.subscriptionPlanId)).find((t) => t.kind === 'PRORATION')!;
    // A weekly period: the difference times the share of the week still ahead when it was charged,
    // in whole pesos as the prices are (docs/billing.md#price-changes).
    const ahead = (before.nextChargeDate!.getTime() - proration.chargeDate.getTime()) / (7 * DAY_MS);
    expect(proration).toMatchObject({ status: 'APPROVED', amount: Math.round((700_000 * ahead) / 100) * 100, paymentMethodToken: before.paymentMethodToken });
    expect(proration.amount).toBeGreaterThan(499_000);
    expect(proration.amount).toBeLessThanOrEqual(500_000);
    expect(await link.plan()).toMatchObject({ amount: 1_700_000, nextChargeDate: before.nextChargeDate, scheduledAmount: null });
    // The proration's charge event and subscription.updated are written in one transaction, at one time: no order between them.
    const types = (await eventsOf(link.subscriptionPlanId)).map((e) => e.type).sort();
    expect(types).toEqual(['subscription.charge.approved', 'subscription.charge.approved', 'subscription.updated']);
    const [mail] = await emailsOf(link.subscriptionPlanId, 'price_change');
    expect(mail!.text).toContain('El nuevo valor rige desde hoy');
  });

  it('changes nothing when the prorated charge is declined: a 409', async () => {
    const link = await paidPlan({ card: CARDS.renewalsDecline });
    const res = await patch(link, { amount: 1_500_000, effective: 'now' });
    expect(res.status).toBe(409);
    expect(res.json.error.message).toMatch(/prorated charge txn_\w+ was DECLINED .*the price did not change/);
    expect(await link.plan()).toMatchObject({ amount: 1_000_000, scheduledAmount: null, scheduledFrom: null });
    expect((await txnsOf(link.subscriptionPlanId)).map((t) => [t.kind, t.status])).toEqual([
      ['INITIAL', 'APPROVED'],
      ['PRORATION', 'DECLINED'],
    ]);
    expect(await emailsOf(link.subscriptionPlanId, 'price_change')).toEqual([]);
  });
});

describe('bad input: a 400 naming the field, and nothing changes', () => {
  it.each([
    [{}, 'amount'],
    [{ amount: '1500000' }, 'amount'],
    [{ amount: 99 }, 'amount'],
    [{ amount: 1.5e6 + 0.5 }, 'amount'],
    [{ amount: 1_500_000, effective: 'later' }, 'effective'],
    [{ amount: 1_500_000, description: '' }, 'description'],
    [{ amount: 900_000, effective: 'now' }, 'effective'],
  ])('%j → %s', async (body, path) => {
    const link = await paidPlan();
    await expectRefusedUnchanged(link, () => patch(link, body), path);
  });

  it('refuses now on a PAUSED plan, and any change to a CANCELLED or COMPLETED one', async () => {
    const paused = await paidPlan();
    await call(pause, { method: 'POST', headers: paused.merchant.headers, params: { id: paused.subscriptionPlanId } });
    const res = await patch(paused, { amount: 1_500_000, effective: 'now' });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path: 'effective' })]);

    const cancelled = await paidPlan();
    await call(cancel, { method: 'POST', headers: cancelled.merchant.headers, params: { id: cancelled.subscriptionPlanId } });
    expect((await patch(cancelled, { amount: 1_500_000 })).json.error.details).toEqual([expect.objectContaining({ path: 'id' })]);

    const single = await createTestLink(database.db, { modality: 'SINGLE' });
    await payWithCard(database.db, sandbox, { token: single.token, card: parseCard(cardForm(CARDS.approved))! });
    const completed = await call(PATCH, { method: 'PATCH', headers: single.merchant.headers, params: { id: single.subscriptionPlanId }, body: { amount: 500_000 } });
    expect(completed.status).toBe(400);
    expect(completed.json.error.details).toEqual([expect.objectContaining({ path: 'id' })]);
    expect((await single.plan()).amount).toBe(150_000);
  });

  it("answers 403 for another merchant's plan and 404 for an unknown one", async () => {
    const link = await paidPlan();
    const other = await paidPlan();
    expect((await call(PATCH, { method: 'PATCH', headers: other.merchant.headers, params: { id: link.subscriptionPlanId }, body: { amount: 200_000 } })).status).toBe(403);
    expect((await call(PATCH, { method: 'PATCH', headers: other.merchant.headers, params: { id: 'sub_000000000000000000000000' }, body: { amount: 200_000 } })).status).toBe(404);
    expect((await link.plan()).scheduledAmount).toBeNull();
  });
});
