import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATCH as patchMerchant } from '@/app/admin/merchants/[id]/route';
import { POST as cancelRoute } from '@/app/merchants/subscription-plans/[id]/cancel/route';
import { POST as pauseRoute } from '@/app/merchants/subscription-plans/[id]/pause/route';
import { POST as resumeRoute } from '@/app/merchants/subscription-plans/[id]/resume/route';
import { GET as listRoute } from '@/app/merchants/webhook-events/route';
import { POST as resendRoute } from '@/app/merchants/webhook-events/[id]/resend/route';
import type { Database } from '@/db/client';
import { merchants, webhookEvents } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { deliverEvent } from '@/lib/webhooks/deliver';
import { lifecyclePayloadSchema, LIFECYCLE_EVENT_TYPES } from '@/lib/webhooks/payload';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { fileReceiver, heldHandOffsPerTest } from '@/test/receiver-hooks';

// Lifecycle events (docs/customers.md#lifecycle-events): written in the transaction of the change,
// only for merchants who chose them, signed and delivered, listed and resendable like charge events.

let database: Database;
const receiver = fileReceiver();
const handOffs = heldHandOffsPerTest();

beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

async function link({ chosen = [] as string[], card = CARDS.approved } = {}) {
  const l = await createTestLink(database.db);
  await database.db.update(merchants).set({ webhookUrl: receiver.url }).where(eq(merchants.id, l.merchant.merchantId));
  if (chosen.length) {
    const res = await call(patchMerchant, { method: 'PATCH', headers: adminHeaders(), params: { id: l.merchant.merchantId }, body: { webhookEvents: chosen } });
    expect(res.status).toBe(200);
  }
  await payWithCard(database.db, sandbox, { token: l.token, card: parseCard(cardForm(card))! });
  return l;
}

const eventsOf = (planId: string) => database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId)).orderBy(webhookEvents.id);
const send = (route: typeof pauseRoute | typeof resumeRoute | typeof cancelRoute, l: Awaited<ReturnType<typeof link>>, body?: unknown) =>
  call(route, { method: 'POST', headers: l.merchant.headers, params: { id: l.subscriptionPlanId }, body });

describe('choosing lifecycle events (PATCH /admin/merchants/{id} webhookEvents)', () => {
  it('defaults to the four charge events, and always keeps them when lifecycle events are chosen', async () => {
    const l = await createTestLink(database.db);
    const id = l.merchant.merchantId;
    const before = await call(patchMerchant, { method: 'PATCH', headers: adminHeaders(), params: { id }, body: { name: 'Tienda' } });
    expect(before.json.webhookEvents).toEqual(['subscription.charge.approved', 'subscription.charge.declined', 'subscription.charge.error', 'subscription.charge.voided']);
    const res = await call(patchMerchant, { method: 'PATCH', headers: adminHeaders(), params: { id }, body: { webhookEvents: ['subscription.cancelled'] } });
    expect(res.status).toBe(200);
    expect(res.json.webhookEvents).toEqual([...before.json.webhookEvents, 'subscription.cancelled']);
  });

  it.each([
    [['subscription.deleted'], 'webhookEvents.0'],
    ['subscription.cancelled', 'webhookEvents'],
    [[42], 'webhookEvents.0'],
  ])('refuses %j with a 400 naming the field', async (webhookEvents, path) => {
    const l = await createTestLink(database.db);
    const res = await call(patchMerchant, { method: 'PATCH', headers: adminHeaders(), params: { id: l.merchant.merchantId }, body: { webhookEvents } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain(path);
  });
});

describe('lifecycle events', () => {
  it('not chosen: pay, pause, resume and cancel write nothing but the charge event', async () => {
    const l = await link();
    for (const route of [pauseRoute, resumeRoute, cancelRoute]) expect((await send(route, l)).status).toBe(200);
    expect((await eventsOf(l.subscriptionPlanId)).map((e) => e.type)).toEqual(['subscription.charge.approved']);
  });

  it('chosen: activated with the first approval, then paused, resumed and cancelled, each with its body', async () => {
    const l = await link({ chosen: [...LIFECYCLE_EVENT_TYPES] });
    await send(pauseRoute, l);
    await send(resumeRoute, l);
    await send(cancelRoute, l, { reason: 'Customer moved away' });
    const events = await eventsOf(l.subscriptionPlanId);
    // Ids made in the same millisecond (the approval and the activation) sort in any order.
    expect(events.map((e) => e.type).sort()).toEqual([
      'subscription.activated',
      'subscription.cancelled',
      'subscription.charge.approved',
      'subscription.paused',
      'subscription.resumed',
    ]);
    const body = (type: string) => lifecyclePayloadSchema.parse(JSON.parse(events.find((e) => e.type === type)!.body)).data;
    expect(body('subscription.activated')).toMatchObject({ subscriptionPlanId: l.subscriptionPlanId, status: 'ACTIVE', nextChargeDate: expect.any(Number) });
    expect(body('subscription.paused')).toMatchObject({ status: 'PAUSED', nextChargeDate: null });
    expect(body('subscription.resumed')).toMatchObject({ status: 'ACTIVE', nextChargeDate: expect.any(Number) });
    expect(body('subscription.cancelled')).toEqual({ subscriptionPlanId: l.subscriptionPlanId, externalReference: expect.any(String), status: 'CANCELLED', nextChargeDate: null, reason: 'Customer moved away' });
    expect(body('subscription.activated')).not.toHaveProperty('reason');
    expect(events.every((e) => e.transactionId === null || e.type.startsWith('subscription.charge'))).toBe(true);
    // Handed to delivery after each commit.
    expect(handOffs.eventIds).toEqual(expect.arrayContaining(events.map((e) => e.id)));
  });

  it('a refused transition writes no event', async () => {
    const l = await link({ chosen: ['subscription.resumed'] });
    expect((await send(resumeRoute, l)).status).toBe(409);
    expect((await eventsOf(l.subscriptionPlanId)).map((e) => e.type)).toEqual(['subscription.charge.approved']);
  });

  it('cancelled after the last failed renewal retry, with the reason (the ladder off)', async () => {
    const l = await link({ chosen: ['subscription.cancelled'], card: CARDS.renewalsDecline });
    await database.db.update(merchants).set({ renewalLadder: false }).where(eq(merchants.id, l.merchant.merchantId));
    for (let i = 0; i < 4; i++) {
      const due = (await l.plan()).nextChargeDate!;
      await runRenewalSweep(database.db, sandbox, { now: new Date(due.getTime() + 1000) });
    }
    expect((await l.plan()).status).toBe('CANCELLED');
    const events = await eventsOf(l.subscriptionPlanId);
    const cancelled = events.filter((e) => e.type === 'subscription.cancelled');
    expect(cancelled).toHaveLength(1);
    expect(JSON.parse(cancelled[0]!.body).data).toMatchObject({ status: 'CANCELLED', nextChargeDate: null, reason: expect.stringContaining('Renewal failed 4 times') });
  });

  it('is signed and delivered like a charge event, listed with a null transaction, and resendable', async () => {
    const l = await link({ chosen: ['subscription.paused'] });
    await send(pauseRoute, l);
    const paused = (await eventsOf(l.subscriptionPlanId)).find((e) => e.type === 'subscription.paused')!;
    expect((await deliverEvent(database.db, paused.id, { trigger: 'automatic' })).status).toBe('sent');
    const [received] = await receiver.waitFor(1);
    expect(received!.body).toBe(paused.body);
    expect(received!.headers['x-webhook-id']).toBe(paused.id);
    const secret = (await database.db.select().from(merchants).where(eq(merchants.id, l.merchant.merchantId)))[0]!.webhookSecret;
    expect(received!.headers['x-webhook-signature']).toBe(createHmac('sha256', secret).update(paused.body).digest('hex'));

    const list = await call(listRoute, { headers: l.merchant.headers, path: `/merchants/webhook-events?subscriptionPlanId=${l.subscriptionPlanId}` });
    expect(list.status).toBe(200);
    expect(list.json.data[0]).toMatchObject({ id: paused.id, event: 'subscription.paused', subscriptionTransactionId: null, body: paused.body });

    const resent = await call(resendRoute, { method: 'POST', headers: l.merchant.headers, params: { id: paused.id } });
    expect(resent.status).toBe(202);
    await receiver.waitFor(2);
    expect(receiver.received[1]!.body).toBe(paused.body);
  });
});
