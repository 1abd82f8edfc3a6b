import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { emails, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { GET as getRecord } from '@/app/merchants/subscription-plans/[id]/route';
import { GET as getStatus } from '@/app/merchants/plans/[subscriptionPlanId]/status/route';
import { API_VERSIONS, VERSION_HEADER } from '@/lib/api-versions';
import { ApiError } from '@/lib/api/errors';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { updateMerchant } from '@/lib/merchants/merchants';
import { parseCard } from '@/lib/processors/card';
import type { PaymentInstrument, PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { createCoupon } from '@/lib/coupons/coupons';
import { termsOf } from '@/lib/coupons/discount';
import { cancelPlan } from '@/lib/plans/lifecycle';
import { changePlanPrice } from '@/lib/plans/price-change';
import { LIFECYCLE_EVENT_TYPES } from '@/lib/webhooks/payload';
import { CARDS, cardForm, createTestLink, PSE_APPROVES } from '@/test/checkout';
import { bogota, DAY_MS, later } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { apiRefusal as refusal, call } from '@/test/http';
import { doubleMerchant, SANDBOX, startWompiDouble } from '@/test/wompi-double';
import { payCheckout, payWithCard } from './payments';

// Free trials (docs/billing.md#trials): the checkout saves the method without charging, the plan
// is TRIALING, the customer hears of it at the start and 3 days before the end, and the end is
// charged by the renewal sweep as a renewal.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });
const START = bogota('2027-03-10');
const card = (number: string): PaymentInstrument => ({ type: 'CARD', card: parseCard(cardForm(number))! });
const PSE: PaymentInstrument = PSE_APPROVES;

/** A link with a trial whose token is valid at START; every lifecycle event chosen. */
async function trialLink(plan: Record<string, unknown> = {}) {
  const link = await createTestLink(database.db, { trialDays: 14, amount: 2_990_000, description: 'Plan Pro', ...plan });
  await updateMerchant(database.db, link.merchant.merchantId, { webhookEvents: [...LIFECYCLE_EVENT_TYPES] });
  await database.db.update(subscriptionPlans).set({ tokenExpiresAt: later(START, DAY_MS) }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
  return { ...link, planId: link.subscriptionPlanId };
}
type TrialLink = Awaited<ReturnType<typeof trialLink>>;

const start = (link: TrialLink, instrument: PaymentInstrument, processor: PaymentProcessor = sandbox, now = START) =>
  payCheckout(database.db, processor, { token: link.token, payment: { instrument }, lang: 'es', now });
const sweep = (now: Date, processor: PaymentProcessor = sandbox) => runRenewalSweep(database.db, processor, { now });
const txnsOf = (planId: string) => database.db.select().from(transactions).where(eq(transactions.planId, planId)).orderBy(asc(transactions.id));
const emailsOf = (planId: string) => database.db.select().from(emails).where(eq(emails.planId, planId)).orderBy(asc(emails.createdAt), asc(emails.id));
const eventsOf = (planId: string) =>
  database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId)).orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.type));

// Only this test's plans take part in a sweep.
beforeEach(async () => {
  await database.db
    .update(subscriptionPlans)
    .set({ status: 'CANCELLED' })
    .where(and(inArray(subscriptionPlans.status, ['ACTIVE', 'TRIALING']), notInArray(subscriptionPlans.id, ['-'])));
});

describe('starting a free trial at the checkout', () => {
  it('saves the card without charging: TRIALING until the end, shown by the status reply and the plan record, e-mailed to the customer', async () => {
    const link = await trialLink();
    const started = await start(link, card(CARDS.approved));
    const end = later(START, 14 * DAY_MS);
    expect(started).toEqual({ status: 'TRIALING', subscriptionTransactionId: null, transactionId: null, trialEndsAt: end.getTime() });
    expect(await txnsOf(link.planId)).toEqual([]);
    expect(await link.plan()).toMatchObject({
      status: 'TRIALING',
      nextChargeDate: end,
      trialEndsAt: end,
      trialNoticeAt: later(end, -3 * DAY_MS),
      paymentMethodToken: expect.stringMatching(/^pm_sandbox_approve_/),
      renewalCollection: 'AUTOMATIC',
    });

    const status = await call(getStatus, { headers: link.merchant.headers, params: { subscriptionPlanId: link.planId } });
    expect(status.json).toEqual({
      subscriptionPlanId: link.planId,
      externalReference: expect.any(String),
      plan: { status: 'TRIALING', amount: 2_990_000, currency: 'COP', description: 'Plan Pro', nextChargeDate: end.getTime(), trial: { days: 14, endsAt: end.getTime() } },
    });
    const record = await call(getRecord, { headers: link.merchant.headers, params: { id: link.planId } });
    expect(record.json).toMatchObject({ status: 'TRIALING', nextChargeDate: end.getTime(), trial: { days: 14, endsAt: end.getTime() } });
    // A receiver written to the first published contract sees 2026-11-20's states and fields only.
    const first = { ...link.merchant.headers, [VERSION_HEADER]: API_VERSIONS[0] };
    const old = await call(getStatus, { headers: first, params: { subscriptionPlanId: link.planId } });
    expect(old.json.plan).toEqual({ status: 'PENDING_ACTIVATION', amount: 2_990_000, currency: 'COP', description: 'Plan Pro', nextChargeDate: end.getTime() });

    const [mail, ...others] = await emailsOf(link.planId);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({ kind: 'trial_started', subject: 'Comenzó su prueba gratis con Tienda de prueba' });
    expect(mail!.text).toContain('Su prueba gratis de «Plan Pro» va hasta el 24 de marzo de 2027. Hoy no se le cobró nada.');
    expect(mail!.text).toContain('El 24 de marzo de 2027 se cobrarán $ 29.900 a su medio de pago guardado, y luego $ 29.900 al mes.');
    expect(mail!.text).toContain('Le escribiremos 3 días antes de ese cobro.');
    expect(mail!.text).toContain('/manage/');
    // Nothing is sent to the merchant yet: the trial's end is told 3 days before it.
    expect((await eventsOf(link.planId)).map((e) => e.type)).toEqual([]);
  });

  it('refuses PSE with a 400 naming the method, and changes nothing', async () => {
    const link = await trialLink();
    const error = await refusal(start(link, PSE));
    expect(error.code).toBe('invalid_request');
    expect(error.options.details).toEqual([{ path: 'method', message: 'PSE cannot start a free trial; use a card or Nequi' }]);
    expect(await link.plan()).toMatchObject({ status: 'PENDING_ACTIVATION', paymentMethodToken: null, trialEndsAt: null });
    expect(await emailsOf(link.planId)).toEqual([]);
  });

  it('answers DECLINED for a card the processor refuses, changing nothing; another card then starts it; a second start is a 409', async () => {
    const link = await trialLink();
    expect(await start(link, card(CARDS.declined))).toEqual({ status: 'DECLINED', subscriptionTransactionId: null, transactionId: null, declineReason: 'insufficient_funds' });
    expect(await start(link, card(CARDS.unsupported))).toMatchObject({ status: 'DECLINED', declineReason: 'card_not_supported' });
    expect(await link.plan()).toMatchObject({ status: 'PENDING_ACTIVATION', paymentMethodToken: null });
    expect(await emailsOf(link.planId)).toEqual([]);
    expect((await start(link, card(CARDS.approved))).status).toBe('TRIALING');
    const again = await refusal(start(link, card(CARDS.approved)));
    expect(again).toMatchObject({ code: 'conflict', message: 'The free trial of this link has already started' });
    // Many starts at once: one trial, one e-mail.
    const racing = await trialLink();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => start(racing, card(CARDS.approved))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as ApiError).code).toBe('conflict');
    expect(await emailsOf(racing.planId)).toHaveLength(1);
  });

  it('starts with Nequi in the sandbox, and payWithCard refuses to treat a trial as a payment', async () => {
    const link = await trialLink();
    expect((await start(link, { type: 'NEQUI', phoneNumber: '3991111111' })).status).toBe('TRIALING');
    expect((await link.plan()).paymentMethodToken).toMatch(/^pm_sandbox_nequi_approve_/);
    const other = await trialLink();
    await expect(payWithCard(database.db, sandbox, { token: other.token, card: parseCard(cardForm(CARDS.approved))!, now: START })).rejects.toThrow(/free trial/);
  });
});

describe('the end of a free trial', () => {
  it('is told 3 days before (once, however many sweeps), then charged as the first renewal: ACTIVE, activated, receipt, next period a month on', async () => {
    const link = await trialLink();
    await start(link, card(CARDS.approved));
    const end = later(START, 14 * DAY_MS);
    expect(await sweep(later(end, -3 * DAY_MS - 1000))).toMatchObject({ trialNotices: 0, due: 0 });
    const notices = await Promise.all([sweep(later(end, -3 * DAY_MS)), sweep(later(end, -3 * DAY_MS)), sweep(later(end, -2 * DAY_MS))]);
    expect(notices.reduce((n, s) => n + s.trialNotices, 0)).toBe(1);
    const ending = (await emailsOf(link.planId)).find((e) => e.kind === 'trial_ending')!;
    expect(ending.subject).toBe('Su prueba gratis con Tienda de prueba termina el 24 de marzo de 2027');
    expect(ending.text).toContain('Ese día se cobrarán $ 29.900 a su medio de pago guardado, y luego $ 29.900 al mes.');
    const [willEnd] = await eventsOf(link.planId);
    expect(willEnd!.type).toBe('subscription.trial_will_end');
    expect(JSON.parse(willEnd!.body).data).toEqual({
      subscriptionPlanId: link.planId,
      externalReference: expect.any(String),
      status: 'TRIALING',
      nextChargeDate: end.getTime(),
      trial: { endsAt: end.getTime(), amount: 2_990_000 },
    });
    expect(await txnsOf(link.planId)).toEqual([]);

    const charged = await sweep(end);
    expect(charged).toMatchObject({ due: 1, approved: 1 });
    const [first] = await txnsOf(link.planId);
    expect(first).toMatchObject({ kind: 'RENEWAL', status: 'APPROVED', amount: 2_990_000, periodStart: end });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', nextChargeDate: bogota('2027-04-24'), billingAnchorDay: 24, trialNoticeAt: null, renewalFailures: 0 });
    expect((await eventsOf(link.planId)).map((e) => e.type)).toEqual(['subscription.trial_will_end', 'subscription.activated', 'subscription.charge.approved']);
    expect((await emailsOf(link.planId)).map((e) => e.kind)).toEqual(['trial_started', 'trial_ending', 'receipt']);
    const status = await call(getStatus, { headers: link.merchant.headers, params: { subscriptionPlanId: link.planId } });
    expect(status.json.plan).toMatchObject({ status: 'ACTIVE', trial: { days: 14, endsAt: end.getTime() } });
    expect(status.json.lastTransaction).toMatchObject({ status: 'APPROVED', amount: 2_990_000 });
    expect(await sweep(bogota('2027-04-24'))).toMatchObject({ due: 1, approved: 1 });
  });

  it('with a coupon, tells the first charge as it will be made: the e-mails and subscription.trial_will_end say the discounted amount', async () => {
    // Found by e2e/pricing-journey.spec.ts: they said the list price, and the trial's end charged 80 % of it.
    const link = await trialLink({ interval: { unit: 'week', count: 1 }, trialDays: 7 });
    const coupon = await createCoupon(database.db, link.merchant.merchantId, { code: 'SEMANA20', percentOff: 20, duration: 'repeating', durationInPeriods: 3 });
    await database.db.update(subscriptionPlans).set(termsOf(coupon)).where(eq(subscriptionPlans.id, link.planId));
    await start(link, card(CARDS.approved));
    const end = later(START, 7 * DAY_MS);
    const told = 'se cobrarán $ 23.920 a su medio de pago guardado, con su descuento; cuando el descuento termine, $ 29.900 cada semana.';
    expect((await emailsOf(link.planId)).find((e) => e.kind === 'trial_started')!.text).toContain(`El 17 de marzo de 2027 ${told}`);
    expect(await sweep(later(end, -3 * DAY_MS))).toMatchObject({ due: 0 });
    expect((await emailsOf(link.planId)).find((e) => e.kind === 'trial_ending')!.text).toContain(`Ese día ${told}`);
    const [willEnd] = await eventsOf(link.planId);
    expect(JSON.parse(willEnd!.body).data.trial).toEqual({ endsAt: end.getTime(), amount: 2_392_000 });

    expect(await sweep(end)).toMatchObject({ due: 1, approved: 1 });
    expect(await txnsOf(link.planId)).toMatchObject([{ kind: 'RENEWAL', status: 'APPROVED', amount: 2_392_000, discount: 598_000 }]);
  });

  it('with a coupon that never ends, quotes the list price the discount comes off', async () => {
    const link = await trialLink({ interval: { unit: 'week', count: 1 }, trialDays: 7 });
    const coupon = await createCoupon(database.db, link.merchant.merchantId, { code: 'SIEMPRE20', percentOff: 20, duration: 'forever' });
    await database.db.update(subscriptionPlans).set(termsOf(coupon)).where(eq(subscriptionPlans.id, link.planId));
    await start(link, card(CARDS.approved));
    const told = 'se cobrarán $ 23.920 a su medio de pago guardado, y luego $ 23.920 cada semana, con su descuento sobre el precio de lista de $ 29.900.';
    expect((await emailsOf(link.planId)).find((e) => e.kind === 'trial_started')!.text).toContain(`El 17 de marzo de 2027 ${told}`);
    await sweep(later(START, 4 * DAY_MS));
    expect((await emailsOf(link.planId)).find((e) => e.kind === 'trial_ending')!.text).toContain(`Ese día ${told}`);
  });

  it('charges a price change scheduled during the trial from its end, and follows a weekly interval', async () => {
    const link = await trialLink({ interval: { unit: 'week', count: 1 }, trialDays: 7 });
    await start(link, card(CARDS.approved));
    const end = later(START, 7 * DAY_MS);
    await changePlanPrice(database.db, sandbox, { merchantId: link.merchant.merchantId, planId: link.planId }, { amount: 3_500_000, effective: 'next_charge' }, later(START, DAY_MS));
    expect(await link.plan()).toMatchObject({ status: 'TRIALING', amount: 2_990_000, scheduledAmount: 3_500_000, scheduledFrom: end });
    // `now` needs a plan already charged: a trial has nothing to prorate.
    const now = await refusal(changePlanPrice(database.db, sandbox, { merchantId: link.merchant.merchantId, planId: link.planId }, { amount: 4_000_000, effective: 'now' }, later(START, DAY_MS)));
    expect(now.options.details).toEqual([expect.objectContaining({ path: 'effective' })]);
    await sweep(later(end, -3 * DAY_MS));
    expect((await emailsOf(link.planId)).find((e) => e.kind === 'trial_ending')!.text).toContain('se cobrarán $ 35.000 a su medio de pago guardado, y luego $ 35.000 cada semana');
    await sweep(end);
    expect((await txnsOf(link.planId))[0]).toMatchObject({ status: 'APPROVED', amount: 3_500_000 });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', amount: 3_500_000, scheduledAmount: null, nextChargeDate: later(end, 7 * DAY_MS) });
  });

  it('is retried when declined (the plan stays TRIALING), and cancels the plan after the last retry, without the ladder', async () => {
    const link = await trialLink();
    await start(link, card(CARDS.renewalsDecline));
    const end = later(START, 14 * DAY_MS);
    await sweep(end);
    expect(await link.plan()).toMatchObject({ status: 'TRIALING', renewalFailures: 1, nextChargeDate: later(end, DAY_MS) });
    expect((await emailsOf(link.planId)).map((e) => e.kind)).toContain('renewal_failed');
    for (const day of [1, 3, 5]) await sweep(later(end, day * DAY_MS));
    expect(await link.plan()).toMatchObject({ status: 'CANCELLED', cancelReason: expect.stringMatching(/^Renewal failed 4 times/) });
    expect((await txnsOf(link.planId)).map((t) => t.status)).toEqual(['DECLINED', 'DECLINED', 'DECLINED', 'DECLINED']);
    expect((await eventsOf(link.planId)).map((e) => e.type)).toContain('subscription.cancelled');
    expect((await eventsOf(link.planId)).map((e) => e.type)).not.toContain('subscription.renewal_due');
  });

  it('a trial cancelled before its end charges nothing, ever', async () => {
    const link = await trialLink();
    await start(link, card(CARDS.approved));
    await cancelPlan(database.db, { merchantId: link.merchant.merchantId, planId: link.planId });
    const end = later(START, 14 * DAY_MS);
    for (const at of [later(end, -3 * DAY_MS), end, later(end, DAY_MS), later(end, 40 * DAY_MS)]) expect(await sweep(at)).toMatchObject({ due: 0, trialNotices: 0 });
    expect(await txnsOf(link.planId)).toEqual([]);
    expect(await link.plan()).toMatchObject({ status: 'CANCELLED' });
    expect((await emailsOf(link.planId)).map((e) => e.kind).sort()).toEqual(['cancelled', 'trial_started']);
    expect((await eventsOf(link.planId)).map((e) => e.type)).toEqual(['subscription.cancelled']);
  });

  it('a trial of 3 days or less is told at its start (the event at once, no second e-mail)', async () => {
    const link = await trialLink({ trialDays: 3 });
    await start(link, card(CARDS.approved));
    const end = later(START, 3 * DAY_MS);
    expect(await link.plan()).toMatchObject({ trialNoticeAt: null, nextChargeDate: end });
    const [mail] = await emailsOf(link.planId);
    expect(mail!.text).not.toContain('3 días antes');
    expect((await eventsOf(link.planId)).map((e) => JSON.parse(e.body).data.trial)).toEqual([{ endsAt: end.getTime(), amount: 2_990_000 }]);
    expect(await sweep(end)).toMatchObject({ trialNotices: 0, approved: 1 });
  });
});

describe('free trials with Wompi (against the double of docs/processors.md#the-wompi-double)', () => {
  it('a card becomes a payment source with a fresh acceptance pair and nothing is charged; the end charges the source without consent tokens', async () => {
    const double = await startWompiDouble({ settleMs: 20 });
    try {
      const { processor: wompi, client, fresh } = doubleMerchant(double);
      const link = await trialLink();
      const tokenized = await client.tokenizeCard({ number: SANDBOX.cards.approved, cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
      const instrument: PaymentInstrument = { type: 'CARD_TOKEN', token: tokenized.id, brand: 'visa', last4: '4242' };
      // Without the payer's consent nothing reaches Wompi.
      const noConsent = await refusal(payCheckout(database.db, wompi, { token: link.token, payment: { instrument }, now: START }));
      expect(noConsent.code).toBe('invalid_request');
      const started = await payCheckout(database.db, wompi, { token: link.token, payment: { instrument, consent: await fresh() }, now: START });
      expect(started.status).toBe('TRIALING');
      expect((await link.plan()).paymentMethodToken).toMatch(/^wompi_source_CARD_\d+$/);
      expect(double.requests.filter((r) => r.path === '/v1/transactions')).toEqual([]);

      const end = later(START, 14 * DAY_MS);
      expect(await sweep(end, wompi)).toMatchObject({ due: 1 });
      const charges = double.requests.filter((r) => r.method === 'POST' && r.path === '/v1/transactions');
      expect(charges).toHaveLength(1);
      const body = charges[0]!.body as Record<string, unknown>;
      expect(body).toMatchObject({ amount_in_cents: 2_990_000, recurrent: true, payment_source_id: expect.any(Number) });
      expect(body).not.toHaveProperty('acceptance_token');
      await new Promise((resolve) => setTimeout(resolve, 60));
      await sweep(later(end, 60_000), wompi);
      expect(await link.plan()).toMatchObject({ status: 'ACTIVE' });
      expect((await txnsOf(link.planId))[0]).toMatchObject({ status: 'APPROVED', amount: 2_990_000, gatewayTransactionId: expect.stringMatching(/^\d+(-\d+)+$/) });
    } finally {
      await double.close();
    }
  });

  it('Nequi starts only once approved in the app (PENDING before, the pair unspent); a refused account is DECLINED; PSE is refused', async () => {
    const double = await startWompiDouble({ settleMs: 60_000 });
    try {
      const { processor: wompi, client, fresh } = doubleMerchant(double);
      const consent = await fresh();
      const link = await trialLink();
      const nequi = await client.tokenizeNequi(SANDBOX.nequi.approved);
      const instrument: PaymentInstrument = { type: 'NEQUI_TOKEN', token: nequi.id, phoneNumber: SANDBOX.nequi.approved };
      const pay = () => payCheckout(database.db, wompi, { token: link.token, payment: { instrument, consent }, now: START });
      expect(await pay()).toEqual({ status: 'PENDING', subscriptionTransactionId: null, transactionId: null });
      expect(await link.plan()).toMatchObject({ status: 'PENDING_ACTIVATION' });
      double.decideNequi(nequi.id);
      // The same pair, unspent while the account waited, makes the payment source.
      expect((await pay()).status).toBe('TRIALING');
      expect((await link.plan()).paymentMethodToken).toMatch(/^wompi_source_NEQUI_\d+$/);
      expect(double.requests.filter((r) => r.path === '/v1/transactions')).toEqual([]);

      const refused = await trialLink();
      const declinedToken = await client.tokenizeNequi(SANDBOX.nequi.declined);
      double.decideNequi(declinedToken.id);
      const declined = await payCheckout(database.db, wompi, {
        token: refused.token,
        payment: { instrument: { type: 'NEQUI_TOKEN', token: declinedToken.id, phoneNumber: SANDBOX.nequi.declined }, consent },
        now: START,
      });
      expect(declined).toMatchObject({ status: 'DECLINED' });
      const pse = await refusal(payCheckout(database.db, wompi, { token: refused.token, payment: { instrument: PSE, consent }, now: START }));
      expect(pse.options.details).toEqual([expect.objectContaining({ path: 'method' })]);
      expect(await refused.plan()).toMatchObject({ status: 'PENDING_ACTIVATION', paymentMethodToken: null });
    } finally {
      await double.close();
    }
  });
});
