import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { auditLog, renewalLinks, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import type { ApiVersion } from '@/lib/api-versions';
import { ApiError } from '@/lib/api/errors';
import { getPayment, isTrialStart, payCheckout } from '@/lib/checkout/payments';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { updateMerchant } from '@/lib/merchants/merchants';
import { cancelPlan, pausePlan } from '@/lib/plans/lifecycle';
import { parseCard } from '@/lib/processors/card';
import type { PaymentInstrument, PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { lifecyclePayloadSchema, LIFECYCLE_EVENT_TYPES } from '@/lib/webhooks/payload';
import { GET as GET_STATUS } from '@/app/merchants/plans/[subscriptionPlanId]/status/route';
import { OPERATIONS } from '@/app/api/openapi.json/operations';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { CARDS, cardForm, PSE_APPROVES } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { markPaymentRefunded } from './refunds';
import { runSettler } from './settler';

// Refund due (docs/billing.md#refund-due): a late PSE or Nequi payment of a renewal link is owed
// back, shown to the newest API version, told by the opt-in charge.refund_due, until marked refunded.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });
let processorNow = 0;
const slow = createSandboxProcessor({ pendingMs: 60_000, now: () => processorNow });
const bogota = (isoDate: string) => new Date(`${isoDate}T15:00:00.000Z`);
const NEQUI_APPROVES: PaymentInstrument = { type: 'NEQUI', phoneNumber: '3991111111' };
const actor = { type: 'user' as const, id: 'usr_test', label: 'owner@example.com', ip: null };

const pay = async (token: string, instrument: PaymentInstrument, now: Date, processor: PaymentProcessor) => {
  const view = await payCheckout(database.db, processor, { token, payment: { instrument }, now });
  if (isTrialStart(view)) throw new Error('no plan of these tests has a free trial');
  return view;
};
const txnOf = async (id: string) => (await database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;
const eventsOf = (planId: string, type: string) =>
  database.db.select().from(webhookEvents).where(and(eq(webhookEvents.planId, planId), eq(webhookEvents.type, type as never))).orderBy(asc(webhookEvents.id));

beforeEach(async () => {
  await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(eq(subscriptionPlans.status, 'ACTIVE'));
});

/** A plan paid by PSE whose renewal link is open and being paid with `instrument` (PENDING), then stopped by `stop`. */
async function latePayment(instrument: PaymentInstrument, stop: 'cancel' | 'pause', { chosen = true, version }: { chosen?: boolean; version?: ApiVersion } = {}) {
  const merchant = await createTestMerchant(database.db);
  if (chosen) await updateMerchant(database.db, merchant.merchantId, { webhookEvents: [...LIFECYCLE_EVENT_TYPES], ...(version ? { apiVersion: version } : {}) });
  const link = await paidPlanOf(database.db, { merchant, instrument: PSE_APPROVES, paidAt: bogota('2027-03-10'), processor: sandbox });
  await runRenewalSweep(database.db, sandbox, { now: bogota('2027-04-07') });
  const [renewal] = await database.db.select().from(renewalLinks).where(eq(renewalLinks.planId, link.planId));
  const at = bogota('2027-04-08');
  processorNow = at.getTime();
  const paying = await pay(renewal!.token, instrument, at, slow);
  expect(paying.status).toBe('PENDING');
  const scope = { merchantId: merchant.merchantId, planId: link.planId };
  if (stop === 'cancel') await cancelPlan(database.db, scope);
  else await pausePlan(database.db, scope);
  processorNow += 120_000;
  await runSettler(database.db, { now: new Date(at.getTime() + 60_000), processorFor: () => slow });
  return { merchant, planId: link.planId, renewal: renewal!, transactionId: paying.subscriptionTransactionId, at };
}

const status = (merchant: { headers: Record<string, string> }, planId: string, version?: string) =>
  call(GET_STATUS, { headers: { ...merchant.headers, ...(version ? { 'ServicePay-Version': version } : {}) }, params: { subscriptionPlanId: planId } });

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a late PSE or Nequi payment of a renewal link', () => {
  it('is refund due: refundDue on the transaction for 2026-11-28 only, charge.refund_due sent once, until marked refunded', async () => {
    const late = await latePayment(PSE_APPROVES, 'pause');
    const txn = await txnOf(late.transactionId);
    expect(txn).toMatchObject({ status: 'APPROVED', refundDueAt: new Date(late.at.getTime() + 60_000), refundedAt: null });

    const [event, ...more] = await eventsOf(late.planId, 'charge.refund_due');
    expect(more).toEqual([]);
    expect(event!.transactionId).toBe(late.transactionId);
    const body = lifecyclePayloadSchema.parse(JSON.parse(event!.body));
    expect(body).toMatchObject({
      event: 'charge.refund_due',
      data: {
        subscriptionPlanId: late.planId,
        status: 'PAUSED',
        refund: { subscriptionTransactionId: late.transactionId, transactionId: txn.gatewayTransactionId, amount: 150000, paymentMethodType: 'PSE', chargeDate: txn.chargeDate.getTime() },
      },
    });
    // The page's poll after the settler changes nothing: no second event.
    await getPayment(database.db, slow, { token: late.renewal.token, transactionId: late.transactionId });
    expect(await eventsOf(late.planId, 'charge.refund_due')).toHaveLength(1);

    const newest = await status(late.merchant, late.planId);
    expect(newest.json.lastTransaction).toEqual({
      subscriptionTransactionId: late.transactionId,
      status: 'APPROVED',
      amount: 150000,
      chargeDate: txn.chargeDate.getTime(),
      gatewayTransactionId: txn.gatewayTransactionId,
      refundDue: true,
    });
    for (const version of ['2026-11-26', '2026-11-20']) {
      expect((await status(late.merchant, late.planId, version)).json.lastTransaction).not.toHaveProperty('refundDue');
    }

    const refunded = await markPaymentRefunded(database.db, { merchantId: late.merchant.merchantId, transactionId: late.transactionId, actor });
    expect(refunded.ok && refunded.txn.refundedAt).toBeInstanceOf(Date);
    expect((await status(late.merchant, late.planId)).json.lastTransaction).not.toHaveProperty('refundDue');
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.merchantId, late.merchant.merchantId));
    expect(audit.filter((e) => e.action === 'transaction.refunded')).toEqual([
      expect.objectContaining({ actorId: 'usr_test', target: late.transactionId, changes: expect.objectContaining({ amount: 150000, paymentMethodType: 'PSE' }) }),
    ]);
  });

  it('by Nequi after a cancel is refund due too; without the event chosen nothing is sent', async () => {
    const late = await latePayment(NEQUI_APPROVES, 'cancel', { chosen: false });
    expect(await txnOf(late.transactionId)).toMatchObject({ status: 'APPROVED', refundDueAt: expect.any(Date) });
    expect(await eventsOf(late.planId, 'charge.refund_due')).toEqual([]);
  });

  it('sends no charge.refund_due to a merchant pinned before 2026-11-28, even with every event chosen', async () => {
    const late = await latePayment(PSE_APPROVES, 'pause', { version: '2026-11-26' });
    expect(await txnOf(late.transactionId)).toMatchObject({ status: 'APPROVED', refundDueAt: expect.any(Date) });
    expect(await eventsOf(late.planId, 'charge.refund_due')).toEqual([]);
    expect(await eventsOf(late.planId, 'subscription.paused')).toHaveLength(1);
    // Nor does that version's OpenAPI document list it.
    const settings = { appUrl: 'https://pay.example.co', checkoutTokenTtlSeconds: 86_400 };
    expect(Object.keys(buildOpenApiDocument(settings, OPERATIONS, '2026-11-26').webhooks)).not.toContain('charge.refund_due');
    expect(Object.keys(buildOpenApiDocument(settings, OPERATIONS).webhooks)).toContain('charge.refund_due');
  });

  it('a late card payment is voided, never refund due', async () => {
    const late = await latePayment({ type: 'CARD', card: parseCard(cardForm(CARDS.pendingApproved))! }, 'cancel');
    expect(await txnOf(late.transactionId)).toMatchObject({ status: 'VOIDED', refundDueAt: null });
    expect(await eventsOf(late.planId, 'charge.refund_due')).toEqual([]);
    expect((await status(late.merchant, late.planId)).json.lastTransaction).not.toHaveProperty('refundDue');
  });
});

describe('marking a payment refunded', () => {
  it('refuses a second mark, another merchant’s payment, one not owed and an unknown id; changes nothing', async () => {
    const late = await latePayment(PSE_APPROVES, 'cancel');
    const scope = { merchantId: late.merchant.merchantId, transactionId: late.transactionId, actor };
    const other = await createTestMerchant(database.db);
    expect(await refusal(markPaymentRefunded(database.db, { ...scope, merchantId: other.merchantId }))).toEqual({
      code: 'forbidden',
      message: 'This transaction belongs to another account',
    });
    expect((await txnOf(late.transactionId)).refundedAt).toBeNull();

    await markPaymentRefunded(database.db, scope);
    const first = (await txnOf(late.transactionId)).refundedAt!;
    expect(await markPaymentRefunded(database.db, scope)).toEqual({ ok: false, problem: 'already_refunded', refundedAt: first });
    expect((await txnOf(late.transactionId)).refundedAt).toEqual(first);

    // The plan's first payment was approved in time: nothing is owed.
    const [initial] = await database.db.select().from(transactions).where(and(eq(transactions.planId, late.planId), eq(transactions.kind, 'INITIAL')));
    expect(await markPaymentRefunded(database.db, { ...scope, transactionId: initial!.id })).toEqual({ ok: false, problem: 'not_due' });
    expect(await refusal(markPaymentRefunded(database.db, { ...scope, transactionId: 'txn_nope' }))).toMatchObject({ code: 'not_found' });
    const marks = (await database.db.select().from(auditLog).where(eq(auditLog.merchantId, late.merchant.merchantId))).filter((e) => e.action === 'transaction.refunded');
    expect(marks).toHaveLength(1);
  });
});
