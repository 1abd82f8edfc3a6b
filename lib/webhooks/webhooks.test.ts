import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as planStatusRoute } from '@/app/merchants/plans/[subscriptionPlanId]/status/route';
import type { Database } from '@/db/client';
import { claimEvents, recordAttempts } from '@/db/queries/webhooks';
import { merchants, webhookAttempts, webhookEvents } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { truncateAll, useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { stubResolver } from '@/test/network-tripwire';
import { fileReceiver, heldHandOffsPerTest } from '@/test/receiver-hooks';
import { hang, reply } from '@/test/webhook-receiver';
import { deliverEvent, LEASE_MS } from './deliver';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { signWebhookBody } from './signature';
import { SWEEP_GRACE_MS, sweepAndDispatch } from './sweep';

let database: Database;
const receiver = fileReceiver();
/** Events handed to delivery after commit; the tests decide when (and whether) they go out. */
const handOffs = heldHandOffsPerTest();

beforeAll(async () => {
  database = await useTestDatabase();
});
beforeEach(async () => {
  // The sweeper sees every undelivered event: each test starts from none.
  await truncateAll(database.db);
});

const processor = createSandboxProcessor({ pendingMs: 0 });

/** A link of a merchant whose webhooks go to the test receiver (or nowhere), paid with `cardNumber`. */
async function pay(cardNumber: string, { webhookUrl = receiver.url as string | null } = {}) {
  const link = await createTestLink(database.db);
  await database.db.update(merchants).set({ webhookUrl }).where(eq(merchants.id, link.merchant.merchantId));
  const payment = await payWithCard(database.db, processor, { token: link.token, card: parseCard(cardForm(cardNumber))! });
  const events = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
  return { link, payment, events };
}

const attemptsOf = (eventId: string) => database.db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, eventId));
const eventRow = async (eventId: string) => (await database.db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)))[0]!;
const verifies = (body: string, signature: string | string[] | undefined, secret: string) =>
  createHmac('sha256', secret).update(body).digest('hex') === signature;

describe('the event of a payment outcome', () => {
  it('is written with the approval, in the docs/webhooks.md#payload shape, and handed to delivery once committed', async () => {
    const { link, payment, events } = await pay(CARDS.approved);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(handOffs.eventIds).toEqual([event!.id]);
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'subscription.charge.approved', merchantId: link.merchant.merchantId });
    const body = JSON.parse(event!.body);
    expect(Object.keys(body)).toEqual(['event', 'data', 'timestamp']);
    expect(body).toEqual({
      event: 'subscription.charge.approved',
      data: {
        subscriptionTransactionId: payment.subscriptionTransactionId,
        subscriptionPlanId: link.subscriptionPlanId,
        externalReference: (await link.plan()).externalReference,
        transactionId: payment.transactionId,
        amount: 150000,
        status: 'APPROVED',
        chargeDate: expect.any(Number),
      },
      timestamp: expect.any(Number),
    });
    expect(event!.body).not.toMatch(/4242/);
  });

  it.each([
    [CARDS.declined, 'subscription.charge.declined', 'DECLINED'],
    [CARDS.error, 'subscription.charge.error', 'ERROR'],
  ])('a %s card writes %s', async (cardNumber, type, status) => {
    const { events } = await pay(cardNumber);
    expect(events.map((e) => e.type)).toEqual([type]);
    expect(JSON.parse(events[0]!.body).data.status).toBe(status);
  });

  it('a PENDING charge has no event until it settles', async () => {
    const link = await createTestLink(database.db);
    const slow = createSandboxProcessor({ pendingMs: 60_000 });
    await payWithCard(database.db, slow, { token: link.token, card: parseCard(cardForm(CARDS.pendingApproved))! });
    expect(await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId))).toEqual([]);
    expect(handOffs.eventIds).toEqual([]);
  });
});

describe('delivering an event', () => {
  it('POSTs the stored bytes once, signed with the merchant secret, and records the attempt', async () => {
    const { link, events } = await pay(CARDS.approved);
    const event = events[0]!;
    const result = await deliverEvent(database.db, event.id, { trigger: 'automatic' });
    expect(result.status).toBe('sent');
    const [request] = await receiver.waitFor(1);
    expect(request!.body).toBe(event.body);
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'ServicePay-Webhooks/1',
      'x-webhook-id': event.id,
    });
    expect(verifies(request!.body, request!.headers['x-webhook-signature'], link.merchant.webhookSecret)).toBe(true);
    const attempts = await attemptsOf(event.id);
    expect(attempts).toEqual([
      expect.objectContaining({ trigger: 'automatic', url: receiver.url, statusCode: 200, ok: true, error: null, responseExcerpt: 'ok' }),
    ]);
    expect((await eventRow(event.id)).dispatchedAt).toBeInstanceOf(Date);
  });

  it('is one POST however many dispatchers reach the same event at once', async () => {
    const { events } = await pay(CARDS.approved);
    const results = await Promise.all(Array.from({ length: 6 }, () => deliverEvent(database.db, events[0]!.id, { trigger: 'automatic' })));
    expect(results.filter((r) => r.status === 'sent')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'already_handled')).toHaveLength(5);
    expect(receiver.received).toHaveLength(1);
    expect(await attemptsOf(events[0]!.id)).toHaveLength(1);
  });

  it('is one POST per event when dispatchers race over several events at once (one claim statement)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await pay(CARDS.approved)).events[0]!.id);
    const results = await Promise.all(ids.flatMap((id) => Array.from({ length: 4 }, () => deliverEvent(database.db, id, { trigger: 'automatic' }))));
    expect(results.filter((r) => r.status === 'sent')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'already_handled')).toHaveLength(9);
    expect(receiver.received.map((r) => r.headers['x-webhook-id']).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(await attemptsOf(id)).toEqual([expect.objectContaining({ trigger: 'automatic', ok: true })]);
      expect(await eventRow(id)).toMatchObject({ dispatchedAt: expect.any(Date), claimedUntil: null });
    }
  });

  it("a merchant's resend sends even while an automatic delivery holds the lease, and another merchant's is not_found", async () => {
    const { link, events } = await pay(CARDS.approved);
    const other = await pay(CARDS.approved);
    expect(await claimEvents(database.db, [events[0]!.id], new Date(), LEASE_MS)).toHaveLength(1);
    const resend = await deliverEvent(database.db, events[0]!.id, { trigger: 'manual', merchantId: link.merchant.merchantId });
    expect(resend).toMatchObject({ status: 'sent', attempt: { trigger: 'manual', ok: true } });
    expect(await deliverEvent(database.db, events[0]!.id, { trigger: 'manual', merchantId: other.link.merchant.merchantId })).toEqual({
      status: 'not_found',
    });
    expect(receiver.received.map((r) => r.headers['x-webhook-id'])).toEqual([events[0]!.id]);
    expect((await eventRow(events[0]!.id)).dispatchedAt).toBeNull();
  });

  it.each([404, 500, 410])('records a %i reply as one failed attempt, never retried', async (status) => {
    receiver.respondWith(reply(status, 'nope'));
    const { events } = await pay(CARDS.approved);
    await deliverEvent(database.db, events[0]!.id, { trigger: 'automatic' });
    await sweepAndDispatch(database.db, new Date(Date.now() + SWEEP_GRACE_MS + LEASE_MS));
    await deliveriesSettled();
    expect(receiver.received).toHaveLength(1);
    expect(await attemptsOf(events[0]!.id)).toEqual([expect.objectContaining({ statusCode: status, ok: false, responseExcerpt: 'nope' })]);
  });

  it('with no webhook URL records the event and makes no attempt, now or when a URL is set later', async () => {
    const { link, events } = await pay(CARDS.approved, { webhookUrl: null });
    expect(await deliverEvent(database.db, events[0]!.id, { trigger: 'automatic' })).toEqual({ status: 'no_url' });
    await database.db.update(merchants).set({ webhookUrl: receiver.url }).where(eq(merchants.id, link.merchant.merchantId));
    await sweepAndDispatch(database.db, new Date(Date.now() + SWEEP_GRACE_MS + LEASE_MS));
    await deliveriesSettled();
    expect(await attemptsOf(events[0]!.id)).toEqual([]);
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses, and records, a URL that resolves to a private address when the switch is off', async () => {
    const { link, events } = await pay(CARDS.approved, { webhookUrl: `https://hooks.internal.test:${receiver.port}/webhooks` });
    const resolve = stubResolver({ 'hooks.internal.test': ['10.20.30.40'] });
    await deliverEvent(database.db, events[0]!.id, { trigger: 'automatic', allowPrivateNetwork: false, resolve });
    const [attempt] = await attemptsOf(events[0]!.id);
    expect(attempt).toMatchObject({ ok: false, statusCode: null, url: `https://hooks.internal.test:${receiver.port}/webhooks` });
    expect(attempt!.error).toMatch(/^private_address: refused to connect to a non-public address \(10\.20\.30\.40\)/);
    expect(receiver.received).toHaveLength(0);
    expect(link).toBeDefined();
  });

  it('keeps the service answering while a receiver hangs, then records the timeout at 10 s', async () => {
    receiver.respondWith(hang);
    const { link, events } = await pay(CARDS.approved);
    let finished = false;
    const delivery = deliverEvent(database.db, events[0]!.id, { trigger: 'automatic' }).finally(() => {
      finished = true;
    });
    await receiver.waitFor(1);
    const status = await call(planStatusRoute, { headers: link.merchant.headers, params: { subscriptionPlanId: link.subscriptionPlanId } });
    expect(status.status).toBe(200);
    expect(finished).toBe(false);
    await delivery;
    const [attempt] = await attemptsOf(events[0]!.id);
    expect(attempt).toMatchObject({ ok: false, statusCode: null, error: 'timeout: no complete reply within 10 s' });
    expect(attempt!.latencyMs).toBeGreaterThanOrEqual(9_950);
  });
});

describe('the delivery statements', () => {
  const later = (ms: number) => new Date(Date.now() + ms);

  it("claimEvents takes each event once, however the racing statements overlap, with its merchant's URL and secret", async () => {
    const paid = [];
    for (let i = 0; i < 4; i++) paid.push(await pay(CARDS.approved));
    const ids = paid.map((p) => p.events[0]!.id);
    const now = new Date();
    const [a, b] = await Promise.all([claimEvents(database.db, ids.slice(0, 3), now, LEASE_MS), claimEvents(database.db, ids.slice(1), now, LEASE_MS)]);
    expect([...a, ...b].map((row) => row.id).sort()).toEqual([...ids].sort());
    const first = [...a, ...b].find((row) => row.id === ids[0])!;
    expect(first).toEqual({
      id: ids[0],
      merchantId: paid[0]!.link.merchant.merchantId,
      planId: paid[0]!.events[0]!.planId,
      body: paid[0]!.events[0]!.body,
      createdAt: paid[0]!.events[0]!.createdAt,
      retries: 0,
      webhookUrl: receiver.url,
      webhookSecret: paid[0]!.link.merchant.webhookSecret,
      webhookSecretPrevious: null,
      webhookSecretRolledUntil: null,
      webhookRetries: false,
      webhookFailingSince: null,
      webhookDisabledAt: null,
    });
    expect(await claimEvents(database.db, ids, now, LEASE_MS)).toEqual([]);
    expect(await claimEvents(database.db, ids, later(LEASE_MS + 1000), LEASE_MS)).toHaveLength(4);
  });

  it('recordAttempts writes the attempts and the dispatch of the automatic ones together, or none of it', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await pay(CARDS.approved)).events[0]!.id);
    const attempt = (eventId: string, statusCode: number) => ({
      eventId,
      trigger: 'automatic' as const,
      url: receiver.url,
      attemptedAt: new Date(),
      latencyMs: 5,
      statusCode,
      ok: statusCode === 200,
      error: null,
      responseExcerpt: 'ok',
    });
    const now = new Date();
    const rows = await recordAttempts(database.db, [attempt(ids[0]!, 200), attempt(ids[1]!, 500)], { dispatchedIds: [ids[0]!], now });
    expect(rows.map((r) => [r.eventId, r.statusCode])).toEqual([
      [ids[0], 200],
      [ids[1], 500],
    ]);
    expect((await eventRow(ids[0]!)).dispatchedAt).toEqual(now);
    expect((await eventRow(ids[1]!)).dispatchedAt).toBeNull();
    // An attempt of no event breaks the statement: the other attempt and its dispatch are not written either.
    const broken = recordAttempts(database.db, [attempt(ids[2]!, 200), attempt('evt_0000000000000000000000ZZ', 200)], {
      dispatchedIds: [ids[2]!, 'evt_0000000000000000000000ZZ'],
      now,
    });
    await expect(broken).rejects.toThrow();
    expect(await attemptsOf(ids[2]!)).toEqual([]);
    expect((await eventRow(ids[2]!)).dispatchedAt).toBeNull();
  });
});

describe('the sweeper', () => {
  const later = (ms: number) => new Date(Date.now() + ms);

  it('sends, once, an event whose process died after the commit and before the send', async () => {
    // The dispatcher of the dead process never ran: the event is committed and undelivered.
    const { events } = await pay(CARDS.approved);
    expect(await sweepAndDispatch(database.db, later(1000))).toBe(0); // within the grace period
    expect(await sweepAndDispatch(database.db, later(SWEEP_GRACE_MS + 1000))).toBe(1);
    await deliveriesSettled();
    expect(await sweepAndDispatch(database.db, later(SWEEP_GRACE_MS + 2000))).toBe(0);
    await deliveriesSettled();
    expect(receiver.received.map((r) => r.headers['x-webhook-id'])).toEqual([events[0]!.id]);
    expect(await attemptsOf(events[0]!.id)).toHaveLength(1);
  });

  it('takes over an event whose delivery died mid-way, once its lease has lapsed', async () => {
    const { events } = await pay(CARDS.approved);
    expect(await claimEvents(database.db, [events[0]!.id], new Date(), LEASE_MS)).toHaveLength(1); // …and then the process died
    expect(await sweepAndDispatch(database.db, later(SWEEP_GRACE_MS + 1000))).toBe(0);
    await deliveriesSettled();
    expect(receiver.received).toHaveLength(0);
    const afterLease = later(SWEEP_GRACE_MS + LEASE_MS + 1000);
    expect(await sweepAndDispatch(database.db, afterLease)).toBe(1);
    // The in-process runner claims with the real clock, so the lapsed lease is given back first.
    await database.db.update(webhookEvents).set({ claimedUntil: null }).where(eq(webhookEvents.id, events[0]!.id));
    await deliverEvent(database.db, events[0]!.id, { trigger: 'automatic' });
    await deliveriesSettled();
    expect(receiver.received).toHaveLength(1);
  });
});

describe('signatures', () => {
  const secret = 'whsec_0123456789abcdefghijklmnopqrstuv';
  const body =
    '{"event":"subscription.charge.approved","data":{"subscriptionTransactionId":"txn_0000000000000000000000",' +
    '"subscriptionPlanId":"sub_0000000000000000000000","externalReference":"order-1","transactionId":"00000-1700000000000-00001",' +
    '"amount":150000,"status":"APPROVED","chargeDate":1700000000000},"timestamp":1700000000500}';

  it('matches a known answer (computed with `openssl dgst -sha256 -hmac`)', () => {
    expect(signWebhookBody(body, secret)).toBe('80cbd7f8bd75c791e542f148ee5392d9bff4bf53ced90e9a6df3e1c59bdc2c32');
  });

  it('does not verify over a re-serialized body', () => {
    const parsed = JSON.parse(body);
    const pretty = JSON.stringify(parsed, null, 2);
    const reordered = JSON.stringify({ timestamp: parsed.timestamp, event: parsed.event, data: parsed.data });
    for (const other of [pretty, reordered]) expect(signWebhookBody(other, secret)).not.toBe(signWebhookBody(body, secret));
  });
});
