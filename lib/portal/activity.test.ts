import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { listPlans, listPlanTransactions, listTransactions } from '@/db/queries/activity';
import { listPlanEvents } from '@/db/queries/webhooks';
import { lockPlan } from '@/db/queries/plans';
import { insertTransaction } from '@/db/queries/transactions';
import { webhookAttempts } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { createId } from '@/lib/ids';
import { createPaymentLink } from '@/lib/plans/create-link';
import { createLinkBodySchema } from '@/lib/plans/schemas';
import { Outbox } from '@/lib/outbox';
import { recordChargeEvent } from '@/lib/webhooks/events';
import { useTestDatabase } from '@/test/database';
import { createTestMerchant, linkBody } from '@/test/merchants';
import { findMerchantEvent } from './activity';

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

async function link(merchantId: string, externalReference: string) {
  const body = createLinkBodySchema.parse(linkBody({ plan: { externalReference } }));
  return db.transaction((tx) => createPaymentLink(tx, merchantId, body));
}

/** A declined charge of the plan with its event, as a payment records them. */
async function declined(planId: string) {
  return db.transaction(async (tx) => {
    const plan = await lockPlan(tx, planId);
    const txn = await insertTransaction(tx, {
      id: createId('txn'),
      planId,
      merchantId: plan.merchantId,
      kind: 'INITIAL',
      status: 'DECLINED',
      amount: plan.amount,
      gatewayTransactionId: `gw_${planId}`,
    });
    return { txn, eventId: (await recordChargeEvent(tx, new Outbox(), plan, txn))! };
  });
}

describe('listPlans', () => {
  it('lists only the merchant’s plans, newest first, in pages', async () => {
    const a = await createTestMerchant(db);
    const b = await createTestMerchant(db);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await link(a.merchantId, `ref-${i}`)).subscriptionPlanId);
    await link(b.merchantId, 'ref-0');

    const first = await listPlans(db, a.merchantId, {}, 2);
    expect(first.plans.map((p) => p.id)).toEqual([made[4], made[3]]);
    expect(first.hasMore).toBe(true);
    const last = await listPlans(db, a.merchantId, { before: made[1] }, 2);
    expect(last.plans.map((p) => p.id)).toEqual([made[0]]);
    expect(last.hasMore).toBe(false);
  });

  it('filters by status and by external reference', async () => {
    const a = await createTestMerchant(db);
    const one = await link(a.merchantId, 'order-77');
    await link(a.merchantId, 'order-78');
    expect((await listPlans(db, a.merchantId, { search: 'order-77' }, 10)).plans.map((p) => p.id)).toEqual([one.subscriptionPlanId]);
    expect((await listPlans(db, a.merchantId, { status: 'ACTIVE' }, 10)).plans).toEqual([]);
    expect((await listPlans(db, a.merchantId, { status: 'PENDING_ACTIVATION' }, 10)).plans).toHaveLength(2);
  });
});

describe('search', () => {
  it('finds a reference that looks like an e-mail or a plan id, and still finds by e-mail and by id', async () => {
    const a = await createTestMerchant(db);
    const b = await createTestMerchant(db);
    const email = await link(a.merchantId, 'pedido@tienda-norte.example');
    const subLike = await link(a.merchantId, 'sub_2026_renovacion');
    const other = await link(a.merchantId, 'order-1');
    await link(b.merchantId, 'sub_2026_renovacion');
    const ids = async (search: string) => (await listPlans(db, a.merchantId, { search }, 10)).plans.map((p) => p.id);
    expect(await ids('pedido@tienda-norte.example')).toEqual([email.subscriptionPlanId]);
    expect(await ids('sub_2026_renovacion')).toEqual([subLike.subscriptionPlanId]);
    expect(await ids(other.subscriptionPlanId)).toEqual([other.subscriptionPlanId]);
    // linkBody's customer: every plan of this merchant, newest first; another merchant's never.
    expect(await ids('ANA@EXAMPLE.COM')).toEqual([other.subscriptionPlanId, subLike.subscriptionPlanId, email.subscriptionPlanId]);
    expect(await ids('pedido@tienda')).toEqual([]);

    const { txn } = await declined(subLike.subscriptionPlanId);
    const txnIds = async (search: string) => (await listTransactions(db, a.merchantId, { search }, 10)).transactions.map((t) => t.id);
    expect(await txnIds('sub_2026_renovacion')).toEqual([txn.id]);
    expect(await txnIds(txn.id)).toEqual([txn.id]);
    expect(await txnIds('pedido@tienda-norte.example')).toEqual([]);
    expect((await listTransactions(db, b.merchantId, { search: txn.id }, 10)).transactions).toEqual([]);
  });
});

describe('a plan’s transactions and events', () => {
  it('lists them with each event’s attempts, for the owner only', async () => {
    const a = await createTestMerchant(db);
    const b = await createTestMerchant(db);
    const { subscriptionPlanId } = await link(a.merchantId, 'order-1');
    const { txn, eventId } = await declined(subscriptionPlanId);
    await db.insert(webhookAttempts).values({
      eventId,
      trigger: 'automatic',
      url: 'https://shop.example.com/hooks',
      attemptedAt: new Date(),
      latencyMs: 42,
      statusCode: 500,
      ok: false,
      responseExcerpt: 'boom',
    });

    expect((await listPlanTransactions(db, { merchantId: a.merchantId, planId: subscriptionPlanId })).map((t) => t.id)).toEqual([txn.id]);
    const events = await listPlanEvents(db, a.merchantId, subscriptionPlanId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: eventId, type: 'subscription.charge.declined' });
    expect(events[0]!.attempts).toMatchObject([{ statusCode: 500, latencyMs: 42, responseExcerpt: 'boom', trigger: 'automatic' }]);

    expect(await listPlanTransactions(db, { merchantId: b.merchantId, planId: subscriptionPlanId })).toEqual([]);
    expect(await listPlanEvents(db, b.merchantId, subscriptionPlanId)).toEqual([]);
  });
});

describe('findMerchantEvent', () => {
  it('finds the owner’s event, refuses another merchant’s (403) and misses a malformed or unknown id (404)', async () => {
    const a = await createTestMerchant(db);
    const b = await createTestMerchant(db);
    const { subscriptionPlanId } = await link(a.merchantId, 'order-1');
    const { eventId } = await declined(subscriptionPlanId);

    expect((await findMerchantEvent(db, a.merchantId, eventId)).id).toBe(eventId);
    const codeOf = (p: Promise<unknown>) => p.then(() => 'found', (e: ApiError) => e.code);
    expect(await codeOf(findMerchantEvent(db, b.merchantId, eventId))).toBe('forbidden');
    expect(await codeOf(findMerchantEvent(db, a.merchantId, createId('evt')))).toBe('not_found');
    expect(await codeOf(findMerchantEvent(db, a.merchantId, 'evt_nope'))).toBe('not_found');
  });
});
