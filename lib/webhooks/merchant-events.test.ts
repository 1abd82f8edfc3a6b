import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as listRoute } from '@/app/merchants/webhook-events/route';
import { POST as resendRoute } from '@/app/merchants/webhook-events/[id]/resend/route';
import type { Database } from '@/db/client';
import { merchants, webhookEvents } from '@/db/schema';
import { VERSION_HEADER } from '@/lib/api-versions';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { type Receiver, reply, startReceiver } from '@/test/webhook-receiver';
import { deliveriesSettled } from '@/lib/unit-of-work';

// The merchant endpoints over real payments, with delivery running in process (docs/operations.md#running-it) to
// a real HTTPS receiver.

let database: Database;
let receiver: Receiver;
beforeAll(async () => {
  database = await useTestDatabase();
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
afterEach(async () => {
  await deliveriesSettled();
  receiver.received.length = 0;
  receiver.respondWith(reply(200, 'ok'));
});

const processor = createSandboxProcessor({ pendingMs: 0 });

/** A merchant whose webhooks reach the receiver, with one link paid `cards.length` times. */
async function merchantWithPayments(cards: string[], webhookUrl: string | null = receiver.url) {
  const link = await createTestLink(database.db);
  await database.db.update(merchants).set({ webhookUrl }).where(eq(merchants.id, link.merchant.merchantId));
  for (const number of cards) await payWithCard(database.db, processor, { token: link.token, card: parseCard(cardForm(number))! });
  await deliveriesSettled();
  return link;
}

const list = (headers: Record<string, string>, query = '') => call(listRoute, { path: `/merchants/webhook-events${query}`, headers });
const resend = (headers: Record<string, string>, id: string) =>
  call(resendRoute, { method: 'POST', path: `/merchants/webhook-events/${id}/resend`, headers, params: { id } });

describe('GET /merchants/webhook-events', () => {
  it('lists events newest first, each with its exact body and its attempts', async () => {
    const link = await merchantWithPayments([CARDS.declined, CARDS.approved]);
    const res = await list(link.merchant.headers, `?subscriptionPlanId=${link.subscriptionPlanId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('60');
    const events = res.json.data;
    expect(events.map((e: { event: string }) => e.event)).toEqual(['subscription.charge.approved', 'subscription.charge.declined']);
    expect(res.json.nextCursor).toBeNull();
    const delivered = receiver.received.find((r) => r.headers['x-webhook-id'] === events[0].id)!;
    expect(events[0].body).toBe(delivered.body);
    expect(events[0].attempts).toEqual([
      {
        attemptedAt: expect.any(String),
        trigger: 'automatic',
        url: receiver.url,
        ok: true,
        statusCode: 200,
        latencyMs: expect.any(Number),
        error: null,
        responseExcerpt: 'ok',
      },
    ]);
  });

  it('says when the next retry of a failed delivery is due (nextRetryAt, from 2026-11-28), null when none is', async () => {
    const link = await createTestLink(database.db);
    await database.db.update(merchants).set({ webhookUrl: receiver.url, webhookRetries: true }).where(eq(merchants.id, link.merchant.merchantId));
    receiver.respondWith(reply(500, 'down'));
    await payWithCard(database.db, processor, { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
    await deliveriesSettled();
    const [row] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
    expect(row!.nextRetryAt).not.toBeNull();
    const [failed] = (await list(link.merchant.headers)).json.data;
    expect(failed).toMatchObject({ id: row!.id, nextRetryAt: row!.nextRetryAt!.toISOString() });
    // A merchant reading an older version does not see the field.
    const older = await list({ ...link.merchant.headers, [VERSION_HEADER]: '2026-11-26' });
    expect(older.json.data[0]).not.toHaveProperty('nextRetryAt');
    expect(older.json.data[0]).toMatchObject({ id: row!.id, attempts: [expect.objectContaining({ statusCode: 500 })] });

    receiver.respondWith(reply(200, 'ok'));
    const delivered = await merchantWithPayments([CARDS.approved]);
    expect((await list(delivered.merchant.headers)).json.data[0]).toMatchObject({ nextRetryAt: null, attempts: [expect.objectContaining({ ok: true })] });
  });

  it('pages with a cursor', async () => {
    const link = await merchantWithPayments([CARDS.declined, CARDS.declined, CARDS.approved]);
    const first = await list(link.merchant.headers, '?limit=2');
    expect(first.json.data).toHaveLength(2);
    expect(first.json.nextCursor).toBe(first.json.data[1].id);
    const second = await list(link.merchant.headers, `?limit=2&cursor=${first.json.nextCursor}`);
    expect(second.json.data).toHaveLength(1);
    expect(second.json.nextCursor).toBeNull();
    const ids = [...first.json.data, ...second.json.data].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(3);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it("never shows another merchant's events, and answers 403 for its plan", async () => {
    const theirs = await merchantWithPayments([CARDS.approved]);
    const mine = await createTestMerchant(database.db);
    expect((await list(mine.headers)).json.data).toEqual([]);
    const res = await list(mine.headers, `?subscriptionPlanId=${theirs.subscriptionPlanId}`);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('forbidden');
  });

  it.each([
    ['?subscriptionPlanId=sub_0000000000000000000000ZZ', 404, 'not_found'],
    ['?subscriptionPlanId=nope', 404, 'not_found'],
    ['?cursor=evt_bad', 400, 'invalid_request'],
    ['?limit=0', 400, 'invalid_request'],
    ['?limit=101', 400, 'invalid_request'],
    ['?limit=ten', 400, 'invalid_request'],
  ])('answers %s with %i', async (query, status, code) => {
    const merchant = await createTestMerchant(database.db);
    const res = await list(merchant.headers, query);
    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
  });

  it('refuses a missing or wrong key (401)', async () => {
    expect((await list({})).status).toBe(401);
    expect((await list({ authorization: 'Bearer pk_nope:sk_nope' })).status).toBe(401);
  });
});

describe('POST /merchants/webhook-events/{id}/resend', () => {
  it('sends the same bytes with the same X-Webhook-Id again, and the attempt joins the list', async () => {
    const link = await merchantWithPayments([CARDS.approved]);
    const [event] = (await list(link.merchant.headers)).json.data;
    receiver.respondWith(reply(500, 'down'));
    const res = await resend(link.merchant.headers, event.id);
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ id: event.id, status: 'queued' });
    await deliveriesSettled();
    const deliveries = receiver.received.filter((r) => r.headers['x-webhook-id'] === event.id);
    expect(deliveries).toHaveLength(2);
    expect(deliveries[1]!.body).toBe(deliveries[0]!.body);
    expect(deliveries[1]!.headers['x-webhook-signature']).toBe(deliveries[0]!.headers['x-webhook-signature']);
    const [after] = (await list(link.merchant.headers)).json.data;
    expect(after.attempts.map((a: { trigger: string; statusCode: number }) => [a.trigger, a.statusCode])).toEqual([
      ['automatic', 200],
      ['manual', 500],
    ]);
  });

  it("answers 403 for another merchant's event and sends nothing", async () => {
    const theirs = await merchantWithPayments([CARDS.approved]);
    const [event] = (await list(theirs.merchant.headers)).json.data;
    const mine = await createTestMerchant(database.db);
    receiver.received.length = 0;
    const res = await resend(mine.headers, event.id);
    expect(res.status).toBe(403);
    await deliveriesSettled();
    expect(receiver.received).toHaveLength(0);
  });

  it.each(['evt_0000000000000000000000ZZ', 'evt_short', 'not-an-id'])('answers 404 for %s', async (id) => {
    const merchant = await createTestMerchant(database.db);
    const res = await resend(merchant.headers, id);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
  });

  it('answers 409 when no webhook URL is configured, and records nothing', async () => {
    const link = await merchantWithPayments([CARDS.approved], null);
    const [event] = (await list(link.merchant.headers)).json.data;
    const res = await resend(link.merchant.headers, event.id);
    expect(res.status).toBe(409);
    await deliveriesSettled();
    expect((await list(link.merchant.headers)).json.data[0].attempts).toEqual([]);
  });
});
