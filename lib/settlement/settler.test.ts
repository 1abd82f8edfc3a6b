import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { emails, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { chargeRenewal } from '@/lib/billing/renewals';
import { payWithCard } from '@/lib/checkout/payments';
import { loadCheckoutPage } from '@/lib/checkout/session';
import { webhookPayloadSchema } from '@/lib/webhooks/payload';
import { parseCard } from '@/lib/processors/card';
import type { PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { holdWebhookHandOffs, restoreWebhookQueue } from '@/test/webhook-queue';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { truncateAll, useTestDatabase } from '@/test/database';
import { WOMPI_CALL_TIMEOUT_MS } from '@/lib/processors/wompi/client';
import { MAX_CHECK_INTERVAL_MS, ORPHAN_AFTER_MS, runSettler } from './settler';

let database: Database;
let dispatched: string[] = [];
beforeAll(async () => {
  database = await useTestDatabase();
  dispatched = holdWebhookHandOffs();
});
afterAll(() => restoreWebhookQueue());
// Each test alone with its PENDING transactions: the settler looks at all of them.
beforeEach(() => truncateAll(database.db));

const card = (number: string) => parseCard(cardForm(number))!;
/** `ms` after now: the settler's clock (transactions are created at the real time). */
const later = (ms: number) => new Date(Date.now() + ms);
const txnOf = async (id: string) => (await database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;
const eventsOf = (transactionId: string) => database.db.select().from(webhookEvents).where(eq(webhookEvents.transactionId, transactionId));

/** A sandbox on a clock the test moves: PENDING cards decide once it passes 3 s. */
function clockedSandbox() {
  const clock = { now: Date.now() };
  const sandbox = createSandboxProcessor({ pendingMs: 3000, now: () => clock.now });
  return { sandbox, clock };
}

/** The sandbox, with calls counted and a charge that can be made to fail as a crash would. */
function crashingSandbox(sandbox: PaymentProcessor, { chargeReaches }: { chargeReaches: boolean }) {
  const calls = { retrieve: 0, findByReference: 0 };
  let down = true;
  const processor: PaymentProcessor = {
    ...sandbox,
    async charge(request) {
      if (chargeReaches) await sandbox.charge(request);
      throw new Error('connection reset');
    },
    async pay(request) {
      if (chargeReaches) await sandbox.pay(request);
      throw new Error('connection reset');
    },
    async retrieve(id) {
      calls.retrieve++;
      return sandbox.retrieve(id);
    },
    async findByReference(reference) {
      calls.findByReference++;
      if (down) throw new Error('processor unreachable');
      return sandbox.findByReference(reference);
    },
  };
  return { processor, calls, recover: () => void (down = false) };
}

/** A card payment whose processor call fails as a crash would: PENDING, with no processor id. */
async function lostPayment(chargeReaches: boolean) {
  const sandbox = createSandboxProcessor({ pendingMs: 0 });
  const crashing = crashingSandbox(sandbox, { chargeReaches });
  const link = await createTestLink(database.db);
  const paid = await payWithCard(database.db, crashing.processor, { token: link.token, card: card(CARDS.approved) });
  expect(paid).toMatchObject({ status: 'PENDING', transactionId: null });
  return { sandbox, ...crashing, link, paid };
}

describe('settler', () => {
  it('settles a PENDING first payment nobody polls 10 s after it was made, with its webhook', async () => {
    const { sandbox, clock } = clockedSandbox();
    const link = await createTestLink(database.db);
    const paid = await payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.pendingApproved) });
    expect(paid.status).toBe('PENDING');
    clock.now += 5000;

    expect(await runSettler(database.db, { now: later(8_000), processorFor: () => sandbox })).toMatchObject({ checked: 0 });
    expect((await txnOf(paid.subscriptionTransactionId)).status).toBe('PENDING');

    // docs/settlement.md: a merchant polling 12 times, 5 s apart, sees a charge decided in 3 s.
    expect(await runSettler(database.db, { now: later(11_000), processorFor: () => sandbox })).toMatchObject({ checked: 1, settled: 1 });
    expect(await txnOf(paid.subscriptionTransactionId)).toMatchObject({ status: 'APPROVED', gatewayTransactionId: paid.transactionId });
    expect((await link.plan()).status).toBe('ACTIVE');
    const [event] = await eventsOf(paid.subscriptionTransactionId);
    expect(event!.type).toBe('subscription.charge.approved');
    expect(JSON.parse(event!.body).data.transactionId).toBe(paid.transactionId);
    expect(dispatched).toContain(event!.id);
  });

  it('asks about a charge still undecided at doubling intervals, one settler at a time', async () => {
    const { sandbox } = clockedSandbox();
    const { processor, calls } = crashingSandbox(sandbox, { chargeReaches: true });
    const link = await createTestLink(database.db);
    const paid = await payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.pendingDeclined) });
    const mine = { processorFor: () => processor, limit: 1000 };
    // Ages count from the charge's creation, not from after the payment returned (a slow machine
    // would otherwise age it a second or more before the first check).
    const base = (await txnOf(paid.subscriptionTransactionId)).createdAt.getTime();
    const at = (ms: number) => new Date(base + ms);

    // Two settlers at once: one asks.
    await Promise.all([runSettler(database.db, { ...mine, now: at(11_000) }), runSettler(database.db, { ...mine, now: at(11_000) })]);
    expect(calls.retrieve).toBe(1);
    // Asked at about 10 s of age: due again at about 20 s, then 40 s, not before.
    await runSettler(database.db, { ...mine, now: at(19_000) });
    expect(calls.retrieve).toBe(1);
    await runSettler(database.db, { ...mine, now: at(23_000) });
    expect(calls.retrieve).toBe(2);
    await runSettler(database.db, { ...mine, now: at(40_000) });
    expect(calls.retrieve).toBe(2);
    await runSettler(database.db, { ...mine, now: at(47_000) });
    expect(calls.retrieve).toBe(3);
    // Hours later the interval is capped at 10 minutes.
    await runSettler(database.db, { ...mine, now: at(5 * 3600_000) });
    expect(calls.retrieve).toBe(4);
    await runSettler(database.db, { ...mine, now: at(5 * 3600_000 + MAX_CHECK_INTERVAL_MS - 1000) });
    expect(calls.retrieve).toBe(4);
    await runSettler(database.db, { ...mine, now: at(5 * 3600_000 + MAX_CHECK_INTERVAL_MS) });
    expect(calls.retrieve).toBe(5);
    expect((await txnOf(paid.subscriptionTransactionId)).status).toBe('PENDING');
  });

  it('marks ERROR a charge the processor never received, after two minutes; the link can be paid again', async () => {
    // The processor fails and cannot be asked either: the transaction stays PENDING, no processor id.
    const { sandbox, processor, recover, link, paid } = await lostPayment(false);
    await expect(payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.approved) })).rejects.toMatchObject({ code: 'conflict' });
    recover();

    expect(await runSettler(database.db, { now: later(90_000), processorFor: () => processor })).toMatchObject({ checked: 0 });
    expect(await runSettler(database.db, { now: later(121_000), processorFor: () => processor })).toMatchObject({ checked: 1, orphaned: 1 });
    const txn = await txnOf(paid.subscriptionTransactionId);
    expect(txn).toMatchObject({ status: 'ERROR', gatewayTransactionId: null, failureCode: 'processor_error' });
    const [event] = await eventsOf(txn.id);
    const body = webhookPayloadSchema.parse(JSON.parse(event!.body));
    expect(body).toMatchObject({ event: 'subscription.charge.error', data: { status: 'ERROR', transactionId: null } });

    expect(await payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.approved) })).toMatchObject({ status: 'APPROVED' });
  });

  it('settles by reference a charge the processor made before the process lost track of it', async () => {
    const { sandbox, processor, recover, link, paid } = await lostPayment(true);
    recover();

    expect(await runSettler(database.db, { now: later(121_000), processorFor: () => processor })).toMatchObject({ checked: 1, settled: 1 });
    const txn = await txnOf(paid.subscriptionTransactionId);
    expect(txn).toMatchObject({ status: 'APPROVED', gatewayTransactionId: (await sandbox.findByReference(txn.id))!.gatewayTransactionId });
    // The payment method the lost reply carried is not known (docs/settlement.md): the plan is
    // active without one, so its renewals fail until the customer gives a new method.
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE' });
  });

  it('leaves for later a charge the processor cannot be asked about', async () => {
    const { processor, paid } = await lostPayment(false);
    const summary = await runSettler(database.db, { now: later(121_000), processorFor: () => processor });
    expect(summary).toMatchObject({ failed: 1 });
    expect((await txnOf(paid.subscriptionTransactionId)).status).toBe('PENDING');
  });

  it('leaves due a renewal lost before the processor had it, for the next sweep to charge', async () => {
    const sandbox = createSandboxProcessor({ pendingMs: 0 });
    const link = await createTestLink(database.db);
    await payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.approved) });
    const due = new Date(Date.now() - 60_000);
    await database.db.update(subscriptionPlans).set({ nextChargeDate: due }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
    const crashing = crashingSandbox(sandbox, { chargeReaches: false });
    const due1 = { planId: link.subscriptionPlanId, period: due.getTime(), attempt: 0 };
    const lost = await chargeRenewal(database.db, crashing.processor, due1);
    expect(lost.result).toBe('PENDING');
    crashing.recover();

    expect(await runSettler(database.db, { now: later(121_000), processorFor: () => crashing.processor })).toMatchObject({ checked: 1, orphaned: 1 });
    expect(await txnOf((lost as { transactionId: string }).transactionId)).toMatchObject({ status: 'ERROR', failureCode: 'processor_error' });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', nextChargeDate: due, renewalFailures: 0 });
    const mails = await database.db.select().from(emails).where(eq(emails.planId, link.subscriptionPlanId));
    expect(mails.map((m) => m.kind)).not.toContain('renewal_failed');

    expect(await chargeRenewal(database.db, sandbox, due1)).toMatchObject({ result: 'APPROVED' });
    expect((await link.plan()).nextChargeDate!.getTime()).toBeGreaterThan(due.getTime() + 27 * 86_400_000);
  });

  it('settles a PENDING renewal and moves the plan to its next period', async () => {
    const { sandbox, clock } = clockedSandbox();
    const link = await createTestLink(database.db);
    await payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.approved) });
    // Renewals of this plan answer PENDING: its saved card is a pending one.
    const token = (await sandbox.tokenize(card(CARDS.pendingApproved))).token;
    const due = new Date(Date.now() - 60_000);
    await database.db.update(subscriptionPlans).set({ nextChargeDate: due, paymentMethodToken: token }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
    const outcome = await chargeRenewal(database.db, sandbox, { planId: link.subscriptionPlanId, period: due.getTime(), attempt: 0 });
    expect(outcome.result).toBe('PENDING');
    clock.now += 5000;

    await runSettler(database.db, { now: later(11_000), processorFor: () => sandbox });
    const plan = await link.plan();
    expect(plan.nextChargeDate!.getTime()).toBeGreaterThan(due.getTime() + 27 * 86_400_000);
    expect((await txnOf((outcome as { transactionId: string }).transactionId)).status).toBe('APPROVED');
  });
});

describe('the hosted page while a payment is PENDING', () => {
  it('names the PENDING payment, so the page follows it instead of offering a form', async () => {
    const { sandbox } = clockedSandbox();
    const link = await createTestLink(database.db);
    expect((await loadCheckoutPage(database.db, link.token)).pendingPaymentId).toBeNull();
    const paid = await payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.pendingApproved) });
    expect((await loadCheckoutPage(database.db, link.token)).pendingPaymentId).toBe(paid.subscriptionTransactionId);
  });
});

describe('the orphan limit', () => {
  it('asks about many PENDING charges at once, within the burst limits', async () => {
    const { sandbox, clock } = clockedSandbox();
    const paid = [];
    for (let i = 0; i < 12; i++) {
      const link = await createTestLink(database.db);
      paid.push(await payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.pendingApproved) }));
    }
    clock.now += 5000;
    let inFlight = 0;
    let most = 0;
    const slow: PaymentProcessor = {
      ...sandbox,
      async retrieve(id) {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 50));
        inFlight--;
        return sandbox.retrieve(id);
      },
    };
    const summary = await runSettler(database.db, { now: later(11_000), processorFor: () => slow });
    expect(summary).toMatchObject({ checked: 12, settled: 12, failed: 0 });
    // One merchant per link here: every check could run at once, and more than one did.
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(12);
    for (const p of paid) expect((await txnOf(p.subscriptionTransactionId)).status).toBe('APPROVED');
  });

  it('waits out every processor call that could still give a charge its id, twice over', () => {
    // A slow charge that succeeds after the settler marked it ERROR would find it final.
    expect(ORPHAN_AFTER_MS).toBeGreaterThanOrEqual(2 * 2 * WOMPI_CALL_TIMEOUT_MS);
  });
});
