import { and, asc, eq, notInArray } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { getPlanWithLastTransaction } from '@/db/queries/plans';
import { emails, merchants, renewalLinks, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { loadCheckoutPage } from '@/lib/checkout/session';
import { isTrialStart, payCheckout } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import type { PaymentInstrument, PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { pausePlan, cancelPlan } from '@/lib/plans/lifecycle';
import { changePlanPrice } from '@/lib/plans/price-change';
import { toPlanStatus } from '@/lib/plans/views';
import { LIFECYCLE_EVENT_TYPES } from '@/lib/webhooks/payload';
import { updateMerchant } from '@/lib/merchants/merchants';
import { CARDS, cardForm, PSE_APPROVES } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { apiRefusal as refusal, call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { GET as GET_PLAN } from '@/app/merchants/subscription-plans/[id]/route';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { awaitingRenewals } from './renewal-links';
import { getPayment } from '@/lib/checkout/payments';
import { createManageLink } from '@/lib/auth/manage-links';
import { replacePaymentMethod } from '@/lib/customers/self-service';
import { runSettler } from './settler';
import { createCoupon } from '@/lib/coupons/coupons';
import { termsOf } from '@/lib/coupons/discount';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const DAY = 86_400_000;
const sandbox = createSandboxProcessor({ pendingMs: 0 });
// 10:00 in Bogotá is 15:00 UTC.
const bogota = (isoDate: string) => new Date(`${isoDate}T15:00:00.000Z`);
const later = (date: Date, ms: number) => new Date(date.getTime() + ms);

const PSE_DECLINES: PaymentInstrument = { ...PSE_APPROVES, institutionCode: '2' };
const NEQUI_APPROVES: PaymentInstrument = { type: 'NEQUI', phoneNumber: '3991111111' };
const card = (number: string): PaymentInstrument => ({ type: 'CARD', card: parseCard(cardForm(number))! });

/** A payment of a link without a trial (none of these plans has one). */
const pay = async (token: string, instrument: PaymentInstrument, now: Date, processor: PaymentProcessor = sandbox) => {
  const view = await payCheckout(database.db, processor, { token, payment: { instrument }, now });
  if (isTrialStart(view)) throw new Error('no plan of these tests has a free trial');
  return view;
};
const sweep = (now: Date) => runRenewalSweep(database.db, sandbox, { now });

/** Only this test's plans take part in a sweep: others still ACTIVE are moved out of the way. */
async function onlyThese(planIds: string[]) {
  await database.db
    .update(subscriptionPlans)
    .set({ status: 'CANCELLED' })
    .where(and(eq(subscriptionPlans.status, 'ACTIVE'), notInArray(subscriptionPlans.id, planIds)));
}

/** A RECURRING plan paid at `paidAt` through the checkout; every lifecycle event chosen. */
async function paidPlan(instrument: PaymentInstrument, paidAt: Date, plan: Record<string, unknown> = {}) {
  const merchant = await createTestMerchant(database.db);
  await updateMerchant(database.db, merchant.merchantId, { webhookEvents: [...LIFECYCLE_EVENT_TYPES] });
  return paidPlanOf(database.db, { merchant, instrument, paidAt, plan, processor: sandbox });
}

const linksOf = (planId: string) => database.db.select().from(renewalLinks).where(eq(renewalLinks.planId, planId)).orderBy(asc(renewalLinks.period));
/** The plan's events in the order they were written; those written at the same instant, by name. */
const eventTypes = async (planId: string) =>
  (await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId)).orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.type))).map((e) => e.type);
const emailsOf = async (planId: string) =>
  database.db.select().from(emails).where(eq(emails.planId, planId)).orderBy(asc(emails.createdAt), asc(emails.id));

beforeEach(async () => {
  await onlyThese([]);
});

describe('a RECURRING plan started with PSE (docs/billing.md#renewal-links)', () => {
  it('is renewed by link: e-mailed reminderDays before, paid by PSE as the period’s RENEWAL, then cancelled `unpaid` when grace runs out', async () => {
    const start = bogota('2027-03-10');
    const link = await paidPlan(PSE_APPROVES, start);
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalCollection: 'LINK', paymentMethodToken: null, nextChargeDate: bogota('2027-04-10') });

    // Nothing is pulled, and nothing is sent before reminderDays (3) ahead of the due date.
    expect(await sweep(bogota('2027-04-06'))).toMatchObject({ due: 0, renewalLinks: { issued: 0, reminded: 0, expired: 0 } });
    expect(await linksOf(link.planId)).toEqual([]);
    const issued = await sweep(bogota('2027-04-07'));
    expect(issued).toMatchObject({ due: 0, transactionIds: [], renewalLinks: { issued: 1 } });
    const [renewal] = await linksOf(link.planId);
    expect(renewal).toMatchObject({
      status: 'OPEN',
      source: 'reminder',
      amount: 150000,
      period: bogota('2027-04-10'),
      expiresAt: bogota('2027-04-15'),
      token: expect.stringMatching(/^[0-9A-Za-z]{10}$/),
    });
    const mail = (await emailsOf(link.planId)).find((e) => e.kind === 'renewal_due')!;
    expect(mail.text).toContain(`/pay/${renewal!.token}`);
    expect(mail.subject).toBe('Renueve su suscripción a Tienda de prueba');
    const due = (await database.db.select().from(webhookEvents).where(and(eq(webhookEvents.planId, link.planId), eq(webhookEvents.type, 'subscription.renewal_due'))))[0]!;
    expect(JSON.parse(due.body).data.renewal).toEqual({
      url: expect.stringMatching(new RegExp(`/pay/${renewal!.token}$`)),
      expiresAt: bogota('2027-04-15').getTime(),
      amount: 150000,
      period: bogota('2027-04-10').getTime(),
    });
    // Sweeping again, even at once from another instance, issues nothing more.
    await Promise.all([sweep(bogota('2027-04-07')), sweep(bogota('2027-04-07')), sweep(bogota('2027-04-08'))]);
    expect(await linksOf(link.planId)).toHaveLength(1);

    // The plan record shows the open link for the merchant's own channels.
    const record = await call(GET_PLAN, { headers: link.merchant.headers, params: { id: link.planId } });
    expect(record.json.renewalUrl).toBe(`${process.env.APP_URL}/pay/${renewal!.token}`);
    // The portal lists it as awaiting payment, with the link to copy.
    expect(await awaitingRenewals(database.db, link.merchant.merchantId)).toEqual([
      { planId: link.planId, description: 'Plan mensual', customerEmail: 'ana@example.com', amount: 150000, expiresAt: bogota('2027-04-15'), url: record.json.renewalUrl },
    ]);

    // The status API invents no PENDING transaction while nobody paid.
    const unpaid = await getPlanWithLastTransaction(database.db, { merchantId: link.merchant.merchantId, planId: link.planId });
    expect(toPlanStatus(unpaid!.plan, unpaid!.lastTransaction).lastTransaction).toMatchObject({ status: 'APPROVED' });

    const paid = await pay(renewal!.token, PSE_APPROVES, bogota('2027-04-09'));
    expect(paid.status).toBe('APPROVED');
    const [txn] = await database.db.select().from(transactions).where(eq(transactions.id, paid.subscriptionTransactionId));
    expect(txn).toMatchObject({ kind: 'RENEWAL', amount: 150000, paymentMethodType: 'PSE', renewalLinkId: renewal!.id });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalCollection: 'LINK', nextChargeDate: bogota('2027-05-10'), renewalFailures: 0 });
    expect((await linksOf(link.planId))[0]!.status).toBe('PAID');
    expect((await call(GET_PLAN, { headers: link.merchant.headers, params: { id: link.planId } })).json).not.toHaveProperty('renewalUrl');
    expect(await awaitingRenewals(database.db, link.merchant.merchantId)).toEqual([]);
    expect((await emailsOf(link.planId)).map((e) => e.kind)).toEqual(['receipt', 'renewal_due', 'receipt']);
    // Paid means paid: the page says so, and another payment is refused.
    const page = await loadCheckoutPage(database.db, renewal!.token, bogota('2027-04-09'));
    expect(page.session.renewal).toEqual({ period: bogota('2027-04-10').getTime(), status: 'PAID' });
    expect((await refusal(pay(renewal!.token, PSE_APPROVES, bogota('2027-04-09')))).code).toBe('conflict');

    // The next period goes unpaid: e-mail, reminder on the due date, two days before the end, then cancelled.
    expect(await sweep(bogota('2027-05-07'))).toMatchObject({ renewalLinks: { issued: 1, reminded: 0 } });
    expect(await sweep(bogota('2027-05-10'))).toMatchObject({ renewalLinks: { issued: 0, reminded: 1 } });
    expect(await sweep(bogota('2027-05-11'))).toMatchObject({ renewalLinks: { reminded: 0, expired: 0 } });
    expect(await sweep(bogota('2027-05-13'))).toMatchObject({ renewalLinks: { reminded: 1, expired: 0 } });
    expect((await link.plan()).status).toBe('ACTIVE');
    const ended = await sweep(bogota('2027-05-15'));
    expect(ended).toMatchObject({ cancelledPlanIds: [link.planId], renewalLinks: { expired: 1 } });
    expect(await link.plan()).toMatchObject({ status: 'CANCELLED', cancelReason: 'unpaid' });
    const [, second] = await linksOf(link.planId);
    expect(second!.status).toBe('EXPIRED');
    const subjects = (await emailsOf(link.planId)).map((e) => `${e.kind}: ${e.subject}`);
    expect(subjects.slice(3)).toEqual([
      'renewal_due: Renueve su suscripción a Tienda de prueba',
      'renewal_due: Hoy vence su suscripción a Tienda de prueba',
      'renewal_due: Quedan 2 días para renovar su suscripción a Tienda de prueba',
      'cancelled: Su suscripción a Tienda de prueba fue cancelada',
    ]);
    expect(await eventTypes(link.planId)).toEqual([
      'subscription.activated',
      'subscription.charge.approved',
      'subscription.renewal_due',
      'subscription.charge.approved',
      'subscription.renewal_due',
      'subscription.cancelled',
    ]);
    const cancelled = (await database.db.select().from(webhookEvents).where(and(eq(webhookEvents.planId, link.planId), eq(webhookEvents.type, 'subscription.cancelled'))))[0]!;
    expect(JSON.parse(cancelled.body).data).toMatchObject({ status: 'CANCELLED', reason: 'unpaid' });

    // The expired link says what happened; a payment of it changes nothing.
    const expiredPage = await loadCheckoutPage(database.db, second!.token, bogota('2027-05-16'));
    expect(expiredPage.expired).toBe(true);
    expect((await refusal(pay(second!.token, PSE_APPROVES, bogota('2027-05-16')))).code).toBe('session_expired');
    expect(await database.db.select().from(transactions).where(eq(transactions.renewalLinkId, second!.id))).toEqual([]);
  });

  it('a PSE payment declined at the bank changes nothing: the link stays open and can be paid again, by another method too', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await sweep(bogota('2027-04-07'));
    const [renewal] = await linksOf(link.planId);
    const declined = await pay(renewal!.token, PSE_DECLINES, bogota('2027-04-11'));
    expect(declined.status).toBe('DECLINED');
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalFailures: 0, nextChargeDate: bogota('2027-04-10') });
    expect((await linksOf(link.planId))[0]!.status).toBe('OPEN');
    expect((await emailsOf(link.planId)).map((e) => e.kind)).not.toContain('renewal_failed');
    // By card: the plan is charged automatically from then on, on that card.
    const byCard = await pay(renewal!.token, card(CARDS.approved), bogota('2027-04-12'));
    expect(byCard.status).toBe('APPROVED');
    const plan = await link.plan();
    expect(plan).toMatchObject({ renewalCollection: 'AUTOMATIC', nextChargeDate: bogota('2027-05-10'), paymentMethodToken: expect.stringMatching(/^pm_sandbox_approve_/) });
    expect(await sweep(bogota('2027-05-10'))).toMatchObject({ due: 1, approved: 1, renewalLinks: { issued: 0 } });
  });

  it('closes an open link when the plan is paused (superseded) or cancelled, and the page says so', async () => {
    const paused = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    const cancelled = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await sweep(bogota('2027-04-08'));
    const [p] = await linksOf(paused.planId);
    const [c] = await linksOf(cancelled.planId);
    await pausePlan(database.db, { merchantId: paused.merchant.merchantId, planId: paused.planId });
    await cancelPlan(database.db, { merchantId: cancelled.merchant.merchantId, planId: cancelled.planId });
    expect((await linksOf(paused.planId))[0]!.status).toBe('SUPERSEDED');
    expect((await linksOf(cancelled.planId))[0]!.status).toBe('CANCELLED');
    for (const token of [p!.token, c!.token]) {
      expect((await loadCheckoutPage(database.db, token, bogota('2027-04-09'))).expired).toBe(false);
      expect((await refusal(pay(token, PSE_APPROVES, bogota('2027-04-09')))).message).toBe('This renewal link no longer takes payments');
    }
    // A sweep finds nothing to remind or cancel.
    expect(await sweep(bogota('2027-04-20'))).toMatchObject({ cancelledPlanIds: [], renewalLinks: { issued: 0, reminded: 0, expired: 0 } });
  });

  it('pays one link once, whatever the concurrency: 20 payments at once, one approval', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await sweep(bogota('2027-04-07'));
    const [renewal] = await linksOf(link.planId);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => pay(renewal!.token, card(CARDS.approved), bogota('2027-04-08'))));
    const approved = results.filter((r) => r.status === 'fulfilled' && r.value.status === 'APPROVED');
    expect(approved).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect((r.reason as ApiError).code).toBe('conflict');
    const renewals = await database.db.select().from(transactions).where(eq(transactions.renewalLinkId, renewal!.id));
    expect(renewals.filter((t) => t.status === 'APPROVED')).toHaveLength(1);
  });
});

describe('a price change scheduled on a plan renewed by link (docs/billing.md#price-changes)', () => {
  const change = (link: Awaited<ReturnType<typeof paidPlan>>, amount: number, now: Date) =>
    changePlanPrice(database.db, sandbox, { merchantId: link.merchant.merchantId, planId: link.planId }, { amount, description: 'Plan mensual plus', effective: 'next_charge' }, now);

  it('is what the period’s link charges, and paying it makes the new price the plan’s, as an automatic renewal does', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await change(link, 180000, bogota('2027-03-20'));
    expect(await link.plan()).toMatchObject({ amount: 150000, scheduledAmount: 180000, scheduledFrom: bogota('2027-04-10') });
    await sweep(bogota('2027-04-07'));
    const [renewal] = await linksOf(link.planId);
    expect(renewal).toMatchObject({ amount: 180000, period: bogota('2027-04-10') });
    expect((await loadCheckoutPage(database.db, renewal!.token, bogota('2027-04-08'))).session.amount).toBe(180000);

    const paid = await pay(renewal!.token, PSE_APPROVES, bogota('2027-04-09'));
    const [txn] = await database.db.select().from(transactions).where(eq(transactions.id, paid.subscriptionTransactionId));
    expect(txn).toMatchObject({ status: 'APPROVED', kind: 'RENEWAL', amount: 180000 });
    expect(await link.plan()).toMatchObject({ amount: 180000, description: 'Plan mensual plus', scheduledAmount: null, scheduledFrom: null, nextChargeDate: bogota('2027-05-10') });
    // The next period's link, and the status reply, carry the new price from then on.
    await sweep(bogota('2027-05-07'));
    expect((await linksOf(link.planId))[1]).toMatchObject({ amount: 180000, period: bogota('2027-05-10') });
  });

  it('reprices a link already sent for that period; a link of an earlier period keeps its price', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await sweep(bogota('2027-04-07'));
    await change(link, 120000, bogota('2027-04-08'));
    const [renewal] = await linksOf(link.planId);
    expect(renewal).toMatchObject({ status: 'OPEN', amount: 120000 });
    expect((await pay(renewal!.token, card(CARDS.approved), bogota('2027-04-09'))).status).toBe('APPROVED');
    expect(await link.plan()).toMatchObject({ amount: 120000, scheduledAmount: null, renewalCollection: 'AUTOMATIC' });

    // On the ladder, the open link pays the period being retried; a change from the next period leaves it as it is.
    const ladder = await paidPlan(card(CARDS.renewalsDecline), bogota('2027-03-10'));
    for (const day of ['2027-04-10', '2027-04-11', '2027-04-13', '2027-04-15']) await sweep(bogota(day));
    await change(ladder, 200000, bogota('2027-04-16'));
    expect(await ladder.plan()).toMatchObject({ scheduledAmount: 200000, scheduledFrom: bogota('2027-05-10') });
    const [open] = await linksOf(ladder.planId);
    expect(open).toMatchObject({ status: 'OPEN', source: 'ladder', amount: 150000 });
    expect((await pay(open!.token, card(CARDS.approved), bogota('2027-04-17'))).status).toBe('APPROVED');
    expect(await ladder.plan()).toMatchObject({ amount: 150000, scheduledAmount: 200000, nextChargeDate: bogota('2027-05-10') });
    // Both plans of this test now renew on their cards, each at its own price.
    expect(await sweep(bogota('2027-05-10'))).toMatchObject({ due: 2, approved: 2 });
    expect(await ladder.plan()).toMatchObject({ amount: 200000, scheduledAmount: null });
    expect(await link.plan()).toMatchObject({ amount: 120000 });
  });
});

describe('the ladder (docs/billing.md#renewal-links)', () => {
  const exhaust = async (planId: string) => {
    for (const day of ['2027-04-10', '2027-04-11', '2027-04-13', '2027-04-15']) await sweep(bogota(day));
    return planId;
  };

  it('after the last failed retry of a card, sends the renewal link with grace instead of cancelling; paid by Nequi, renewals go on automatically', async () => {
    const link = await paidPlan(card(CARDS.renewalsDecline), bogota('2027-03-10'));
    await exhaust(link.planId);
    const plan = await link.plan();
    expect(plan).toMatchObject({ status: 'ACTIVE', renewalCollection: 'LINK', renewalFailures: 3 });
    const [ladder] = await linksOf(link.planId);
    expect(ladder).toMatchObject({ status: 'OPEN', source: 'ladder', period: bogota('2027-04-10'), expiresAt: bogota('2027-04-20') });
    const kinds = (await emailsOf(link.planId)).map((e) => e.kind);
    expect(kinds).toEqual(['receipt', 'renewal_failed', 'renewal_failed', 'renewal_failed', 'renewal_due']);
    expect(await eventTypes(link.planId)).toEqual([
      'subscription.activated',
      'subscription.charge.approved',
      'subscription.charge.declined',
      'subscription.charge.declined',
      'subscription.charge.declined',
      'subscription.charge.declined',
      'subscription.renewal_due',
    ]);
    // Nothing more is pulled from the card while the link is open.
    expect(await sweep(bogota('2027-04-16'))).toMatchObject({ due: 0 });

    const paid = await pay(ladder!.token, NEQUI_APPROVES, bogota('2027-04-17'));
    expect(paid.status).toBe('APPROVED');
    expect(await link.plan()).toMatchObject({
      status: 'ACTIVE',
      renewalCollection: 'AUTOMATIC',
      renewalFailures: 0,
      nextChargeDate: bogota('2027-05-10'),
      paymentMethodToken: expect.stringMatching(/^pm_sandbox_nequi_approve_/),
    });
    expect(await sweep(bogota('2027-05-10'))).toMatchObject({ due: 1, approved: 1 });
  });

  it('cancels as before when the merchant switched it off, or gives no grace', async () => {
    const off = await paidPlan(card(CARDS.renewalsDecline), bogota('2027-03-10'));
    const noGrace = await paidPlan(card(CARDS.renewalsDecline), bogota('2027-03-10'));
    await updateMerchant(database.db, off.merchant.merchantId, { renewalLadder: false });
    await updateMerchant(database.db, noGrace.merchant.merchantId, { graceDays: 0 });
    await exhaust(off.planId);
    for (const plan of [await off.plan(), await noGrace.plan()]) {
      expect(plan).toMatchObject({ status: 'CANCELLED', cancelReason: expect.stringMatching(/^Renewal failed 4 times/) });
      expect(await linksOf(plan.id)).toEqual([]);
    }
  });

  it('fits a weekly plan’s link inside its week: grace clamped to 3 days from the last retry (3.5 days after the due date)', async () => {
    const link = await paidPlan(card(CARDS.renewalsDecline), bogota('2027-03-07'), { interval: { unit: 'week', count: 1 } });
    const due = bogota('2027-03-14');
    for (const offset of [0, 1, 3, 3.5]) await sweep(later(due, offset * DAY));
    const [ladder] = await linksOf(link.planId);
    expect(ladder).toMatchObject({ status: 'OPEN', period: due, expiresAt: later(due, 6.5 * DAY) });
    expect(ladder!.expiresAt.getTime()).toBeLessThan(later(due, 7 * DAY).getTime());
    expect(await sweep(later(due, 6.5 * DAY))).toMatchObject({ cancelledPlanIds: [link.planId] });
  });

  it('e-mails a weekly PSE plan’s link 3 days before its due date and gives 3 days of grace (5 clamped)', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-07'), { interval: { unit: 'week', count: 1 } });
    expect(await sweep(bogota('2027-03-10'))).toMatchObject({ renewalLinks: { issued: 0 } });
    expect(await sweep(bogota('2027-03-11'))).toMatchObject({ renewalLinks: { issued: 1 } });
    const [renewal] = await linksOf(link.planId);
    expect(renewal).toMatchObject({ period: bogota('2027-03-14'), expiresAt: bogota('2027-03-17') });
    expect((await pay(renewal!.token, PSE_APPROVES, bogota('2027-03-16'))).status).toBe('APPROVED');
    expect((await link.plan()).nextChargeDate).toEqual(bogota('2027-03-21'));
  });

  it('lets an unpaid ladder link expire into the cancellation, as exhausted retries', async () => {
    const link = await paidPlan(card(CARDS.renewalsDecline), bogota('2027-03-10'));
    await database.db.update(merchants).set({ graceDays: 3 }).where(eq(merchants.id, link.merchant.merchantId));
    await exhaust(link.planId);
    expect((await linksOf(link.planId))[0]!.expiresAt).toEqual(bogota('2027-04-18'));
    expect(await sweep(bogota('2027-04-18'))).toMatchObject({ cancelledPlanIds: [link.planId] });
    expect(await link.plan()).toMatchObject({ status: 'CANCELLED', cancelReason: 'unpaid' });
  });
});

describe('a method saved on the manage page while a renewal link is open (docs/billing.md#a-new-method-while-a-link-is-open)', () => {
  /** The manage page's token, made by an e-mail of `now` (it lives 7 days). */
  const manageToken = async (link: { plan: () => Promise<Parameters<typeof createManageLink>[1]> }, now: Date) =>
    new URL((await createManageLink(database.db, await link.plan(), { source: 'renewal_due', now })).url).pathname.split('/').pop()!;
  const approvals = async (linkId: string) =>
    (await database.db.select().from(transactions).where(eq(transactions.renewalLinkId, linkId))).filter((t) => t.status === 'APPROVED');

  it('turns a PSE plan automatic; the sweep charges the period to the new card once, on the open link, which then shows it paid', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await sweep(bogota('2027-04-07'));
    const [renewal] = await linksOf(link.planId);
    const saved = await replacePaymentMethod(database.db, sandbox, { token: await manageToken(link, bogota('2027-04-08')), instrument: card(CARDS.approved), now: bogota('2027-04-08') });
    expect(saved.openRenewal).toEqual({ expiresAt: bogota('2027-04-15') });
    expect(await link.plan()).toMatchObject({ renewalCollection: 'AUTOMATIC', nextChargeDate: bogota('2027-04-10'), paymentMethodToken: expect.stringMatching(/^pm_sandbox_approve_/) });
    // Still payable until its date; nothing is pulled before the due date.
    expect((await loadCheckoutPage(database.db, renewal!.token, bogota('2027-04-09'))).session.renewal).toMatchObject({ status: 'OPEN' });
    expect(await sweep(bogota('2027-04-09'))).toMatchObject({ due: 0 });

    expect(await sweep(bogota('2027-04-10'))).toMatchObject({ due: 1, approved: 1 });
    const [charged] = await approvals(renewal!.id);
    expect(charged).toMatchObject({ kind: 'RENEWAL', amount: 150000, paymentMethodType: 'CARD', periodStart: bogota('2027-04-10') });
    expect((await linksOf(link.planId))[0]!.status).toBe('PAID');
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalCollection: 'AUTOMATIC', nextChargeDate: bogota('2027-05-10'), renewalFailures: 0 });
    // The link, opened later, says the period is paid and takes nothing.
    expect((await refusal(pay(renewal!.token, NEQUI_APPROVES, bogota('2027-04-11')))).message).toBe('This renewal has already been paid');
    expect(await approvals(renewal!.id)).toHaveLength(1);
    expect(await sweep(bogota('2027-05-10'))).toMatchObject({ due: 1, approved: 1, renewalLinks: { issued: 0 } });
  });

  it('paid on the link first (even by PSE), the period is not charged again and renewals stay on the saved card', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await sweep(bogota('2027-04-07'));
    const [renewal] = await linksOf(link.planId);
    await replacePaymentMethod(database.db, sandbox, { token: await manageToken(link, bogota('2027-04-08')), instrument: card(CARDS.approved), now: bogota('2027-04-08') });
    expect((await pay(renewal!.token, PSE_APPROVES, bogota('2027-04-09'))).status).toBe('APPROVED');
    expect(await link.plan()).toMatchObject({ renewalCollection: 'AUTOMATIC', nextChargeDate: bogota('2027-05-10'), paymentMethodToken: expect.stringMatching(/^pm_sandbox_approve_/) });
    expect(await sweep(bogota('2027-04-10'))).toMatchObject({ due: 0, transactionIds: [] });
    expect(await sweep(bogota('2027-05-10'))).toMatchObject({ due: 1, approved: 1 });
  });

  it('one approval however the saved method and the customer race for the period', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await sweep(bogota('2027-04-07'));
    const [renewal] = await linksOf(link.planId);
    await replacePaymentMethod(database.db, sandbox, { token: await manageToken(link, bogota('2027-04-08')), instrument: card(CARDS.approved), now: bogota('2027-04-08') });
    const raced = await Promise.allSettled([
      sweep(bogota('2027-04-11')),
      ...Array.from({ length: 5 }, () => pay(renewal!.token, card(CARDS.approved), bogota('2027-04-11'))),
      sweep(bogota('2027-04-11')),
    ]);
    for (const r of raced.filter((r) => r.status === 'rejected')) expect((r.reason as ApiError).code).toBe('conflict');
    expect(await approvals(renewal!.id)).toHaveLength(1);
    const renewals = await database.db.select().from(transactions).where(and(eq(transactions.planId, link.planId), eq(transactions.kind, 'RENEWAL')));
    expect(renewals.filter((t) => t.status === 'APPROVED')).toHaveLength(1);
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalCollection: 'AUTOMATIC', nextChargeDate: bogota('2027-05-10') });
  });

  it('a saved method that declines hands the period back to the link: no more pulls, the link still pays it', async () => {
    const link = await paidPlan(card(CARDS.renewalsDecline), bogota('2027-03-10'));
    for (const day of ['2027-04-10', '2027-04-11', '2027-04-13', '2027-04-15']) await sweep(bogota(day));
    const [ladder] = await linksOf(link.planId);
    // Another card that also declines renewals: saved (its check passes), then its one attempt declines.
    await replacePaymentMethod(database.db, sandbox, { token: await manageToken(link, bogota('2027-04-16')), instrument: card(CARDS.renewalsDecline), now: bogota('2027-04-16') });
    expect(await link.plan()).toMatchObject({ renewalCollection: 'AUTOMATIC', renewalFailures: 3 });
    expect(await sweep(bogota('2027-04-16'))).toMatchObject({ due: 1, declined: 1, cancelledPlanIds: [] });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalCollection: 'LINK' });
    expect((await linksOf(link.planId))[0]!.status).toBe('OPEN');
    expect(await sweep(bogota('2027-04-17'))).toMatchObject({ due: 0 });
    expect((await emailsOf(link.planId)).map((e) => e.kind).filter((k) => k === 'renewal_failed')).toHaveLength(3);
    expect((await pay(ladder!.token, NEQUI_APPROVES, bogota('2027-04-18'))).status).toBe('APPROVED');
    expect(await link.plan()).toMatchObject({ renewalCollection: 'AUTOMATIC', nextChargeDate: bogota('2027-05-10'), paymentMethodToken: expect.stringMatching(/^pm_sandbox_nequi_approve_/) });
  });
});

describe('a renewal link of a discounted plan (docs/billing.md#coupons)', () => {
  it('e-mails and announces what the link charges, and the list price the discount comes off', async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    const coupon = await createCoupon(database.db, link.merchant.merchantId, { code: 'SIEMPRE20', percentOff: 20, duration: 'forever' });
    await database.db.update(subscriptionPlans).set(termsOf(coupon)).where(eq(subscriptionPlans.id, link.planId));
    await sweep(bogota('2027-04-07'));
    const mail = (await emailsOf(link.planId)).find((e) => e.kind === 'renewal_due')!;
    expect(mail.text).toContain('El próximo periodo de «Plan mensual» ($ 1.200) vence el');
    expect(mail.text).toContain('Precio de lista: $ 1.500; con su descuento paga $ 1.200.');
    const due = (await database.db.select().from(webhookEvents).where(and(eq(webhookEvents.planId, link.planId), eq(webhookEvents.type, 'subscription.renewal_due'))))[0]!;
    expect(JSON.parse(due.body).data.renewal.amount).toBe(120000);
    // The portal's list of renewals awaiting payment says the same.
    expect((await awaitingRenewals(database.db, link.merchant.merchantId)).map((r) => r.amount)).toEqual([120000]);
    const [renewal] = await linksOf(link.planId);
    const paid = await pay(renewal!.token, PSE_APPROVES, bogota('2027-04-08'));
    expect(await database.db.select().from(transactions).where(eq(transactions.id, paid.subscriptionTransactionId))).toMatchObject([{ amount: 120000, discount: 30000 }]);
  });
});

describe('a renewal link paid after its plan was cancelled or paused (docs/billing.md#late-payments)', () => {
  // A processor whose pending charges the test decides: approved once its clock passes a minute.
  let processorNow = 0;
  const slow = createSandboxProcessor({ pendingMs: 60_000, now: () => processorNow });
  const txnOf = async (id: string) => (await database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;
  /** A plan paid by PSE whose renewal link is open, and the time its payment starts (the processor's clock set to it). */
  const renewalBeingPaid = async () => {
    const link = await paidPlan(PSE_APPROVES, bogota('2027-03-10'));
    await sweep(bogota('2027-04-07'));
    const [renewal] = await linksOf(link.planId);
    const at = bogota('2027-04-08');
    processorNow = at.getTime();
    return { link, renewal, at };
  };

  it('a card approved after the cancellation is voided by the settler; no receipt, the customer is told, the plan stays cancelled', async () => {
    const { link, renewal, at } = await renewalBeingPaid();
    const paying = await pay(renewal!.token, card(CARDS.pendingApproved), at, slow);
    expect(paying.status).toBe('PENDING');
    await cancelPlan(database.db, { merchantId: link.merchant.merchantId, planId: link.planId });
    processorNow += 120_000;
    await runSettler(database.db, { now: later(at, 60_000), processorFor: () => slow });

    expect(await txnOf(paying.subscriptionTransactionId)).toMatchObject({ status: 'VOIDED', renewalLinkId: renewal!.id });
    expect(await link.plan()).toMatchObject({ status: 'CANCELLED' });
    expect((await linksOf(link.planId))[0]!.status).toBe('CANCELLED');
    const mails = await emailsOf(link.planId);
    // The cancellation is dated by the real clock, the rest by the test's: compared as a set.
    expect(mails.map((e) => e.kind).sort()).toEqual(['cancelled', 'late_payment', 'receipt', 'renewal_due']);
    const late = mails.find((e) => e.kind === 'late_payment')!;
    expect(late.subject).toBe('Su pago a Tienda de prueba llegó cuando la suscripción ya no estaba activa');
    expect(late.text).toContain('Anulamos el cobro: no se le cobrará.');
    expect((await eventTypes(link.planId)).slice(-2)).toEqual(['subscription.charge.approved', 'subscription.charge.voided']);
    // The page and its poll say it plainly.
    expect((await loadCheckoutPage(database.db, renewal!.token, later(at, 60_000))).late).toBe('VOIDED');
    expect(await getPayment(database.db, slow, { token: renewal!.token, transactionId: paying.subscriptionTransactionId })).toMatchObject({ status: 'VOIDED', late: true });
    // Nothing is voided twice.
    await runSettler(database.db, { now: later(at, 120_000), processorFor: () => slow });
    expect((await eventTypes(link.planId)).filter((e) => e === 'subscription.charge.voided')).toHaveLength(1);
  });

  it('a PSE payment approved after a pause cannot be voided: the poll says so, the customer is asked to claim it, the plan stays paused', async () => {
    const { link, renewal, at } = await renewalBeingPaid();
    const paying = await pay(renewal!.token, PSE_APPROVES, at, slow);
    expect(paying).toMatchObject({ status: 'PENDING', redirectUrl: expect.any(String) });
    const before = await pausePlan(database.db, { merchantId: link.merchant.merchantId, planId: link.planId });
    processorNow += 120_000;
    // Back from the bank, the page's poll learns the outcome.
    expect(await getPayment(database.db, slow, { token: renewal!.token, transactionId: paying.subscriptionTransactionId })).toMatchObject({ status: 'APPROVED', late: true });
    expect(await link.plan()).toMatchObject({ status: 'PAUSED', nextChargeDate: before.nextChargeDate });
    expect((await linksOf(link.planId))[0]!.status).toBe('SUPERSEDED');
    const late = (await emailsOf(link.planId)).filter((e) => e.kind === 'late_payment');
    expect(late).toHaveLength(1);
    expect(late[0]!.text).toMatch(/pídale a Tienda de prueba la devolución de \$\s1\.500, con la referencia \S+/);
    expect((await emailsOf(link.planId)).filter((e) => e.kind === 'receipt')).toHaveLength(1);
    // The settler leaves it APPROVED (only cards are voided); the reopened page says what to do.
    await runSettler(database.db, { now: later(at, 120_000), processorFor: () => slow });
    expect(await txnOf(paying.subscriptionTransactionId)).toMatchObject({ status: 'APPROVED' });
    expect((await loadCheckoutPage(database.db, renewal!.token, later(at, 120_000))).late).toBe('APPROVED');
  });
});
