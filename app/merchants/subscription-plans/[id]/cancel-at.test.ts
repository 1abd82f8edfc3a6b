import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { emails, merchants, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { POST as manageCancel } from '@/app/manage/[token]/cancel/route';
import { createManageLink } from '@/lib/auth/manage-links';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { loadManagePage } from '@/lib/customers/manage-page';
import { payCheckout, payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { POST as cancel } from './cancel/route';
import { POST as pause } from './pause/route';
import { GET, PATCH } from './route';
import { GET as status } from '../../plans/[subscriptionPlanId]/status/route';
import { expectRefusedUnchanged } from '@/test/refusals';

// Cancel at the end of the period (docs/billing.md#cancel-at-the-end-of-the-period): the API, the
// undo, the sweep that ends the plan instead of renewing it, and the manage page's forms.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

/** A paid monthly plan of a fresh merchant that chose the lifecycle events. */
async function paidPlan(plan: Record<string, unknown> = {}) {
  const link = await createTestLink(database.db, plan);
  await database.db
    .update(merchants)
    .set({ webhookEventTypes: ['subscription.charge.approved', 'subscription.updated', 'subscription.cancelled'] })
    .where(eq(merchants.id, link.merchant.merchantId));
  const paid = await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  expect(paid.status).toBe('APPROVED');
  return link;
}
type Link = Awaited<ReturnType<typeof paidPlan>>;

const cancelBody = (link: Link, body?: unknown, headers: Record<string, string> = {}) =>
  call(cancel, { method: 'POST', headers: { ...link.merchant.headers, ...headers }, params: { id: link.subscriptionPlanId }, body });
const patch = (link: Link, body: unknown) => call(PATCH, { method: 'PATCH', headers: link.merchant.headers, params: { id: link.subscriptionPlanId }, body });
const eventsOf = async (planId: string) =>
  (await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId)).orderBy(webhookEvents.id)).map((e) => ({ type: e.type, body: JSON.parse(e.body) }));
const txnsOf = (planId: string) => database.db.select().from(transactions).where(eq(transactions.planId, planId));
const cancelMails = (planId: string) => database.db.select().from(emails).where(and(eq(emails.planId, planId), eq(emails.kind, 'cancelled')));

describe('POST …/cancel { at: "period_end" }', () => {
  it('keeps the plan ACTIVE until its next charge date, then the sweep cancels it instead of charging, with its e-mail and events', async () => {
    const link = await paidPlan();
    const before = await link.plan();
    const res = await cancelBody(link, { at: 'period_end', reason: 'Se cambia de proveedor' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'ACTIVE', nextChargeDate: before.nextChargeDate!.getTime(), cancelAt: before.nextChargeDate!.getTime() });
    const statusReply = await call(status, { headers: link.merchant.headers, params: { subscriptionPlanId: link.subscriptionPlanId } });
    expect(statusReply.json.plan).toMatchObject({ status: 'ACTIVE', cancelAt: before.nextChargeDate!.getTime() });
    const updated = (await eventsOf(link.subscriptionPlanId)).filter((e) => e.type === 'subscription.updated');
    expect(updated.map((e) => e.body.data)).toEqual([expect.objectContaining({ status: 'ACTIVE', cancelAt: before.nextChargeDate!.getTime() })]);
    // Asked again: the same plan, no second event.
    expect((await cancelBody(link, { at: 'period_end' })).json.cancelAt).toBe(before.nextChargeDate!.getTime());
    expect((await eventsOf(link.subscriptionPlanId)).filter((e) => e.type === 'subscription.updated')).toHaveLength(1);

    // Just before the end nothing happens; at the end the plan is cancelled and nothing is charged.
    await runRenewalSweep(database.db, sandbox, { now: new Date(before.nextChargeDate!.getTime() - 1000) });
    expect((await link.plan()).status).toBe('ACTIVE');
    const summary = await runRenewalSweep(database.db, sandbox, { now: new Date(before.nextChargeDate!.getTime() + 1000) });
    expect(summary.cancelledPlanIds).toContain(link.subscriptionPlanId);
    expect(summary.approved).toBe(0);
    expect(await link.plan()).toMatchObject({ status: 'CANCELLED', cancelReason: 'Se cambia de proveedor' });
    expect((await txnsOf(link.subscriptionPlanId)).map((t) => t.kind)).toEqual(['INITIAL']);
    const cancelled = (await eventsOf(link.subscriptionPlanId)).filter((e) => e.type === 'subscription.cancelled');
    expect(cancelled.map((e) => e.body.data)).toEqual([expect.objectContaining({ status: 'CANCELLED', nextChargeDate: null, reason: 'Se cambia de proveedor' })]);
    const [mail] = await cancelMails(link.subscriptionPlanId);
    expect(mail!.text).toContain('Terminó al final del periodo pagado');
    // The record no longer shows a cancellation to come.
    const record = await call(GET, { headers: link.merchant.headers, params: { id: link.subscriptionPlanId } });
    expect(record.json.cancelAt).toBeUndefined();
  });

  it('is undone with PATCH { at: null } until then, and the plan renews as before', async () => {
    const link = await paidPlan();
    const before = await link.plan();
    await cancelBody(link, { at: 'period_end' });
    const res = await patch(link, { at: null });
    expect(res.status).toBe(200);
    expect(res.json.cancelAt).toBeUndefined();
    expect(await link.plan()).toMatchObject({ cancelAt: null, cancelReason: null, status: 'ACTIVE' });
    const updated = (await eventsOf(link.subscriptionPlanId)).filter((e) => e.type === 'subscription.updated');
    expect(updated.map((e) => e.body.data.cancelAt)).toEqual([before.nextChargeDate!.getTime(), null]);
    await runRenewalSweep(database.db, sandbox, { now: new Date(before.nextChargeDate!.getTime() + 1000) });
    expect((await link.plan()).status).toBe('ACTIVE');
    expect((await txnsOf(link.subscriptionPlanId)).map((t) => [t.kind, t.status]).sort()).toEqual([
      ['INITIAL', 'APPROVED'],
      ['RENEWAL', 'APPROVED'],
    ]);
  });

  it('ends a free trial at its end without charging', async () => {
    const link = await createTestLink(database.db, { trialDays: 7 });
    const started = await payCheckout(database.db, sandbox, { token: link.token, payment: { instrument: { type: 'CARD', card: parseCard(cardForm(CARDS.approved))! } }, lang: 'es' });
    expect(started.status).toBe('TRIALING');
    const plan = await link.plan();
    expect((await cancelBody(link, { at: 'period_end' })).json).toMatchObject({ status: 'TRIALING', cancelAt: plan.trialEndsAt!.getTime() });
    await runRenewalSweep(database.db, sandbox, { now: new Date(plan.trialEndsAt!.getTime() + 1000) });
    expect((await link.plan()).status).toBe('CANCELLED');
    expect(await txnsOf(link.subscriptionPlanId)).toEqual([]);
  });

  it('still lets the merchant cancel now, which clears the date', async () => {
    const link = await paidPlan();
    await cancelBody(link, { at: 'period_end' });
    const res = await cancelBody(link, { at: 'now' });
    expect(res.json).toMatchObject({ status: 'CANCELLED', nextChargeDate: null });
    expect(res.json.cancelAt).toBeUndefined();
    expect((await link.plan()).cancelAt).toBeNull();
  });

  it('shows nothing new to a merchant on an older API version', async () => {
    const link = await paidPlan();
    await cancelBody(link, { at: 'period_end' });
    const old = { 'ServicePay-Version': '2026-11-26' };
    const record = await call(GET, { headers: { ...link.merchant.headers, ...old }, params: { id: link.subscriptionPlanId } });
    expect(record.json.status).toBe('ACTIVE');
    expect(record.json).not.toHaveProperty('cancelAt');
    const statusReply = await call(status, { headers: { ...link.merchant.headers, ...old }, params: { subscriptionPlanId: link.subscriptionPlanId } });
    expect(statusReply.json.plan).not.toHaveProperty('cancelAt');
    const spec = await call(status, { headers: { ...link.merchant.headers, 'ServicePay-Version': '2026-11-20' }, params: { subscriptionPlanId: link.subscriptionPlanId } });
    expect(Object.keys(spec.json.plan).sort()).toEqual(['amount', 'currency', 'description', 'nextChargeDate', 'status']);
  });
});

describe('bad input and wrong state', () => {
  it.each([
    [{ at: 'later' }, 'at'],
    [{ at: null }, 'at'],
    [{ at: 'period_end', reason: '' }, 'reason'],
  ])('cancel %j → 400 naming %s, nothing changes', async (body, path) => {
    const link = await paidPlan();
    await expectRefusedUnchanged(link, () => cancelBody(link, body), path);
  });

  it.each([
    [{ at: 5 }, 'at'],
    [{ at: 'now' }, 'at'],
    [{ at: null, amount: 200_000 }, 'at'],
    [{ at: null, description: 'Otro' }, 'at'],
  ])('PATCH %j → 400 naming %s, nothing changes', async (body, path) => {
    const link = await paidPlan();
    await cancelBody(link, { at: 'period_end' });
    await expectRefusedUnchanged(link, () => patch(link, body), path);
  });

  it('is a 409 for a plan not ACTIVE or TRIALING, or one whose renewal is being retried; undoing a cancelled plan too', async () => {
    const pending = await createTestLink(database.db);
    expect((await cancelBody(pending, { at: 'period_end' })).status).toBe(409);

    const paused = await paidPlan();
    await call(pause, { method: 'POST', headers: paused.merchant.headers, params: { id: paused.subscriptionPlanId } });
    const res = await cancelBody(paused, { at: 'period_end' });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('conflict');
    expect((await paused.plan()).cancelAt).toBeNull();

    const failing = await paidPlan();
    const due = (await failing.plan()).nextChargeDate!;
    // As a first declined attempt leaves it: the retry a day after the due date.
    await database.db.update(subscriptionPlans).set({ renewalFailures: 1, nextChargeDate: new Date(due.getTime() + 86_400_000) }).where(eq(subscriptionPlans.id, failing.subscriptionPlanId));
    expect((await cancelBody(failing, { at: 'period_end' })).status).toBe(409);

    const cancelled = await paidPlan();
    await cancelBody(cancelled);
    expect((await cancelBody(cancelled, { at: 'period_end' })).status).toBe(409);
    expect((await patch(cancelled, { at: null })).status).toBe(409);
  });

  it("answers 403 for another merchant's plan, and changes nothing", async () => {
    const link = await paidPlan();
    const other = await paidPlan();
    const res = await call(cancel, { method: 'POST', headers: other.merchant.headers, params: { id: link.subscriptionPlanId }, body: { at: 'period_end' } });
    expect(res.status).toBe(403);
    expect((await call(PATCH, { method: 'PATCH', headers: other.merchant.headers, params: { id: link.subscriptionPlanId }, body: { at: null } })).status).toBe(403);
    expect((await link.plan()).cancelAt).toBeNull();
  });
});

describe('the manage page', () => {
  const SAME_ORIGIN = { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin', host: 'localhost:3000' };
  const post = (token: string, fields: Record<string, string>) =>
    call(manageCancel, { method: 'POST', path: `/manage/${token}/cancel`, headers: SAME_ORIGIN, params: { token }, body: new URLSearchParams(fields).toString() });
  const plain = { chosenLang: null, confirmCancel: false };

  it('offers the end of the period first, schedules it with a plain form, and keeps the plan when asked', async () => {
    const link = await paidPlan();
    const plan = await link.plan();
    const manage = await createManageLink(database.db, plan, { source: 'merchant' });
    const token = new URL(manage.url).pathname.split('/').pop()!;
    expect(await loadManagePage(database.db, token, plain)).toMatchObject({ periodEnd: plan.nextChargeDate!.getTime(), endsAt: null, cancellable: true });

    const res = await post(token, { at: 'period_end', lang: 'es' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/manage/${token}?done=cancelAtPeriodEnd`);
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', cancelAt: plan.nextChargeDate, cancelReason: 'Cancelled by the customer' });
    expect(await loadManagePage(database.db, token, { chosenLang: null, confirmCancel: true })).toMatchObject({ periodEnd: null, endsAt: plan.nextChargeDate!.getTime(), confirming: false });

    expect((await post(token, { at: 'keep' })).headers.get('location')).toBe(`/manage/${token}?done=kept`);
    expect((await link.plan()).cancelAt).toBeNull();
    expect((await post(token, { at: 'whenever' })).headers.get('location')).toBe(`/manage/${token}?problem=form`);
    expect((await link.plan()).status).toBe('ACTIVE');
  });
});
