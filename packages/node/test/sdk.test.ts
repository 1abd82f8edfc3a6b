import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Database } from '@/db/client';
import { merchants, webhookEvents } from '@/db/schema';
import { payCheckout, payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { type ApiServer, startApiServer } from '@/test/api-server';
import { CARDS, cardForm } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { createTestMerchant, type TestMerchant } from '@/test/merchants';
import { type Receiver, startReceiver } from '@/test/webhook-receiver';
import {
  ArgumentError,
  AuthenticationError,
  ConflictError,
  type CreateLinkRequest,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServicePay,
  WebhookVerificationError,
  webhooks,
} from '../src/index.js';
import { OPERATIONS } from '../src/generated.js';

// @servicepay/node against our real route handlers over real HTTP (test/api-server.ts), the real
// database and a real HTTPS webhook receiver. No mock between the client and our code.

let database: Database;
let api: ApiServer;
let receiver: Receiver;
beforeAll(async () => {
  database = await useTestDatabase();
  api = await startApiServer();
  receiver = await startReceiver();
});
afterAll(async () => {
  await deliveriesSettled();
  await api.close();
  await receiver.close();
});

const client = (m: TestMerchant, options: Partial<ConstructorParameters<typeof ServicePay>[0]> = {}) =>
  new ServicePay({ apiKey: m.apiKey, apiSecret: m.apiSecret, baseUrl: api.url, ...options });

let sequence = 0;
const linkBody = (plan: Partial<CreateLinkRequest['plan']> = {}): CreateLinkRequest => ({
  customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
  plan: { externalReference: `sdk-${Date.now()}-${++sequence}`, description: 'Plan mensual', amount: 150000, ...plan },
});

const pay = (token: string, card: string) =>
  payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token, card: parseCard(cardForm(card))! });

describe('the client against the API', () => {
  it('creates a link, waits for its outcome with one call, and reads the plan, typed', async () => {
    const m = await createTestMerchant(database.db);
    const sp = client(m);
    const link = await sp.links.create(linkBody());
    expectTypeOf(link.subscriptionPlanId).toEqualTypeOf<string>();
    expect(link.token).toHaveLength(10);

    // Before any payment: still waiting after its attempts (kept short here).
    expect(await sp.waitForOutcome(link.subscriptionPlanId, { attempts: 2, intervalMs: 10 })).toMatchObject({ outcome: 'timeout' });
    await pay(link.token, CARDS.approved);
    const outcome = await sp.waitForOutcome(link.subscriptionPlanId);
    expect(outcome).toMatchObject({ outcome: 'approved', status: { plan: { status: 'ACTIVE' }, lastTransaction: { status: 'APPROVED' } } });

    const plan = await sp.plans.retrieve(link.subscriptionPlanId);
    expect(plan).toMatchObject({ id: link.subscriptionPlanId, amount: 150000, status: 'ACTIVE' });
    expect((await sp.plans.pause(plan.id)).status).toBe('PAUSED');
    expect((await sp.plans.resume(plan.id)).status).toBe('ACTIVE');
    expect((await sp.plans.manageLink(plan.id)).url).toContain('/manage/');
    expect((await sp.plans.cancel(plan.id, { reason: 'Customer asked' })).status).toBe('CANCELLED');
  });

  it('says declined, and stops on anything else', async () => {
    const sp = client(await createTestMerchant(database.db));
    const declined = await sp.links.create(linkBody());
    await pay(declined.token, CARDS.declined);
    expect(await sp.waitForOutcome(declined.subscriptionPlanId, { intervalMs: 10 })).toMatchObject({ outcome: 'declined' });
    const cancelled = await sp.links.create(linkBody());
    await sp.plans.cancel(cancelled.subscriptionPlanId);
    expect(await sp.waitForOutcome(cancelled.subscriptionPlanId, { intervalMs: 10 })).toMatchObject({ outcome: 'stopped' });
  });

  it('says trialing once the checkout began a free trial, with its end', async () => {
    const sp = client(await createTestMerchant(database.db));
    const link = await sp.links.create(linkBody({ trialDays: 14 }));
    const started = await payCheckout(database.db, createSandboxProcessor({ pendingMs: 0 }), {
      token: link.token,
      payment: { instrument: { type: 'CARD', card: parseCard(cardForm(CARDS.approved))! } },
    });
    expect(started.status).toBe('TRIALING');
    const outcome = await sp.waitForOutcome(link.subscriptionPlanId, { intervalMs: 10 });
    expect(outcome).toMatchObject({ outcome: 'trialing', status: { plan: { status: 'TRIALING', trial: { days: 14, endsAt: expect.any(Number) } } } });
    expect(outcome.status.lastTransaction).toBeUndefined();
  });

  it('sends an Idempotency-Key on link creation (made when not given): the same key replays the first reply', async () => {
    const sp = client(await createTestMerchant(database.db));
    const body = linkBody();
    const first = await sp.links.create(body, { idempotencyKey: 'order-42' });
    expect(await sp.links.create(body, { idempotencyKey: 'order-42' })).toEqual(first);
    await expect(sp.links.create({ ...body, plan: { ...body.plan, amount: 990000 } }, { idempotencyKey: 'order-42' })).rejects.toBeInstanceOf(ConflictError);
    // Without a key, each call is its own link: a generated key per call, reused only by its own retries.
    const other = await sp.links.create(linkBody());
    expect(other.subscriptionPlanId).not.toBe(first.subscriptionPlanId);
  });

  it('throws typed errors carrying the request id', async () => {
    const m = await createTestMerchant(database.db);
    const stranger = await createTestMerchant(database.db);
    const sp = client(m);
    const foreign = await client(stranger).links.create(linkBody());
    const error = await sp.plans.status(foreign.subscriptionPlanId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden', requestId: expect.stringMatching(/^req_/) });
    expect(String((error as Error).message)).toContain('request req_');
    await expect(sp.plans.status('sub_000000000000000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client(m, { apiSecret: 'sk_test_wrong' }).plans.status(foreign.subscriptionPlanId)).rejects.toBeInstanceOf(AuthenticationError);
    const invalid = await sp.links.create({ ...linkBody(), customer: { phone: '+573001234567', email: 'not-an-email' } }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ code: 'invalid_request', details: [{ path: 'customer.email' }] });
    // A version the API does not know: its 400 lists the ones it does.
    await expect(client(m, { apiVersion: '1999-01-01' }).plans.status(foreign.subscriptionPlanId)).rejects.toThrow(/the versions are 2026-11-20/);
  });

  it('refuses a call with a wrong type before any request, saying which argument', async () => {
    const sp = client(await createTestMerchant(database.db), { baseUrl: 'http://127.0.0.1:9' });
    const wrong = (body: unknown) => sp.links.create(body as CreateLinkRequest);
    await expect(wrong({ ...linkBody(), plan: { ...linkBody().plan, amount: '1500' } })).rejects.toThrow(
      new ArgumentError('createSubscriptionLink: plan.amount: must be a whole number, not "1500" (nothing was sent)'),
    );
    await expect(wrong({ ...linkBody(), plan: { ...linkBody().plan, amount: 15.5 } })).rejects.toThrow(/plan\.amount: must be a whole number, not 15\.5/);
    await expect(wrong({ plan: linkBody().plan })).rejects.toThrow('createSubscriptionLink: customer: is required (nothing was sent)');
    await expect(wrong({ ...linkBody(), plan: { ...linkBody().plan, modality: 'YEARLY' } })).rejects.toThrow(/plan\.modality: must be one of "RECURRING", "SINGLE"/);
    await expect(sp.plans.status(42 as unknown as string)).rejects.toThrow('getPlanStatus: subscriptionPlanId must be a non-empty string, not number (nothing was sent)');
    await expect(sp.webhooks.list({ planId: 'x' } as never)).rejects.toThrow('listWebhookEvents: unknown query parameter planId (nothing was sent)');
    expect(() => new ServicePay({ apiKey: 'pk', apiSecret: 'sk', baseUrl: 'not a url' })).toThrow(ArgumentError);
  });

  it('retries a 429 or 503 as Retry-After says, then gives up with the error', async () => {
    // A gateway in front of the API that answers 503 with Retry-After first (a restart), then passes through.
    const m = await createTestMerchant(database.db);
    let refusals = 2;
    const seen: number[] = [];
    const gateway = http.createServer((req, res) => {
      seen.push(Date.now());
      if (refusals-- > 0) return void res.writeHead(503, { 'Retry-After': '1', 'Content-Type': 'application/json' }).end('{"error":{"code":"internal_error","message":"restarting","requestId":"req_gateway"}}');
      const upstream = http.request(`${api.url}${req.url}`, { method: req.method, headers: req.headers }, (reply) => {
        res.writeHead(reply.statusCode!, reply.headers);
        reply.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    try {
      const link = await client(m, { baseUrl }).links.create(linkBody());
      expect(link.subscriptionPlanId).toMatch(/^sub_/);
      expect(seen).toHaveLength(3);
      expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(950);
      refusals = 5;
      await expect(client(m, { baseUrl, maxRetries: 1 }).plans.status(link.subscriptionPlanId)).rejects.toMatchObject({ status: 503, requestId: 'req_gateway' });
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
    }
  });

  it('is a RateLimitError after the API says 429 too often', async () => {
    const sp = client(await createTestMerchant(database.db), { maxRetries: 0 });
    const link = await sp.links.create(linkBody());
    let error: unknown;
    for (let i = 0; i < 200 && !error; i++) error = await sp.plans.retrieve(link.subscriptionPlanId).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
  });
});

describe('coverage', () => {
  it("reaches every merchant operation of the API from the client (but the local listener's, which is npm run webhooks:listen's)", async () => {
    const m = await createTestMerchant(database.db);
    // Node's own fetch, watched: every request goes to the real server.
    const reached = new Set<string>();
    const watched: typeof fetch = (input, init) => {
      const path = new URL(String(input)).pathname;
      for (const [id, op] of Object.entries(OPERATIONS)) {
        if (op.method === init?.method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path)) reached.add(id);
      }
      return fetch(input, init);
    };
    const sp = client(m, { fetch: watched });
    const link = await sp.links.create(linkBody());
    const id = link.subscriptionPlanId;
    const settled = (p: Promise<unknown>) => p.then(() => 'ok', (error: Error) => error.name);
    expect(await settled(sp.plans.status(id))).toBe('ok');
    expect(await settled(sp.plans.retrieve(id))).toBe('ok');
    expect((await sp.plans.changePrice(id, { amount: 160000, description: 'Plan mensual plus' })).amount).toBe(160000);
    await pay(link.token, CARDS.approved);
    expect(await settled(sp.plans.pause(id))).toBe('ok');
    expect(await settled(sp.plans.resume(id))).toBe('ok');
    expect(await settled(sp.plans.manageLink(id))).toBe('ok');
    // An unmetered plan: the report is refused, but the operation is reached.
    expect(await settled(sp.plans.reportUsage(id, { quantity: 1, idempotencyKey: 'sdk-1' }))).toBe('InvalidRequestError');
    expect(await settled(sp.plans.reportUsageBatch({ reports: [{ subscriptionPlanId: id, quantity: 1, idempotencyKey: 'sdk-2' }] }))).toBe('InvalidRequestError');
    expect(await settled(sp.plans.cancel(id))).toBe('ok');
    expect(await settled(sp.transactions.void('txn_000000000000000000000000'))).toBe('NotFoundError');
    expect(await settled(sp.webhooks.list({ subscriptionPlanId: id }))).toBe('ok');
    expect(await settled(sp.webhooks.resend('evt_000000000000000000000000'))).toBe('NotFoundError');
    const coupon = await sp.coupons.create({ code: 'SDK10', percentOff: 10, duration: 'once' });
    expect((await sp.coupons.list()).data.map((c) => c.id)).toEqual([coupon.id]);
    expect((await sp.coupons.delete(coupon.id)).deleted).toBe(true);
    expect(await settled(sp.testClock.retrieve())).toBe('ok');
    expect(await settled(sp.testClock.advance(new Date(Date.now() + 60_000)))).toBe('ok');
    expect(await settled(sp.testClock.delete())).toBe('ok');
    expect(await settled(sp.invoices.list({ subscriptionPlanId: id }))).toBe('ok');
    expect(await settled(sp.invoices.retrieve('inv_000000000000000000000000'))).toBe('NotFoundError');
    expect([...reached].sort()).toEqual(Object.keys(OPERATIONS).filter((op) => op !== 'listenWebhookEvents').sort());
  });
});

describe('lists', () => {
  it('iterate every item of every page with for await, and still answer one page when awaited', async () => {
    const m = await createTestMerchant(database.db);
    const sp = client(m);
    for (const code of ['PAGE1', 'PAGE2', 'PAGE3']) await sp.coupons.create({ code, percentOff: 10, duration: 'once' });
    const link = await sp.links.create(linkBody());
    await pay(link.token, CARDS.declined);
    await pay(link.token, CARDS.declined);
    await pay(link.token, CARDS.approved);

    const first = await sp.coupons.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const codes: (string | null)[] = [];
    for await (const coupon of sp.coupons.list({ limit: 2 })) codes.push(coupon.code);
    expect(codes).toEqual(['PAGE3', 'PAGE2', 'PAGE1']);

    const events: string[] = [];
    for await (const event of sp.webhooks.list({ subscriptionPlanId: link.subscriptionPlanId, limit: 1 })) events.push(event.event);
    expect(events).toEqual(['subscription.charge.approved', 'subscription.charge.declined', 'subscription.charge.declined']);
    // An error of the first page surfaces in the loop (and when awaited).
    const refused = async () => {
      for await (const event of sp.webhooks.list({ subscriptionPlanId: 'sub_000000000000000000000000' })) void event;
    };
    await expect(refused()).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('test clocks', () => {
  it("advance the merchant's own clock, renewing its plans on the way, and refuse going backwards with the field named", async () => {
    const m = await createTestMerchant(database.db);
    const sp = client(m);
    expect(await sp.testClock.retrieve()).toEqual({ status: 'real_time', frozenTime: null, lastAdvance: null });
    const link = await sp.links.create(linkBody());
    await pay(link.token, CARDS.approved);
    const due = (await sp.plans.status(link.subscriptionPlanId)).plan.nextChargeDate!;
    const clock = await sp.testClock.advance(new Date(due + 60_000));
    expect(clock).toMatchObject({ status: 'ready', frozenTime: new Date(due + 60_000).toISOString(), lastAdvance: { approved: 1 } });
    const status = await sp.plans.status(link.subscriptionPlanId);
    expect(status.lastTransaction).toMatchObject({ status: 'APPROVED', chargeDate: due });
    const refused = await sp.testClock.advance(new Date(due)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as InstanceType<typeof InvalidRequestError>).details).toEqual([{ path: 'advanceTo', message: expect.stringContaining('only forward') }]);
    expect((await sp.testClock.delete()).status).toBe('real_time');
  });
});

describe('webhooks', () => {
  it('verifies and parses a real delivery over its raw body, and refuses what would not verify, saying why', async () => {
    const m = await createTestMerchant(database.db);
    await database.db.update(merchants).set({ webhookUrl: receiver.url }).where(eq(merchants.id, m.merchantId));
    const sp = client(m);
    const link = await sp.links.create(linkBody());
    receiver.received.length = 0;
    await pay(link.token, CARDS.approved);
    const [delivery] = await receiver.waitFor(1);
    const signature = delivery!.headers['x-webhook-signature'] as string;

    expect(sp.webhooks.verify(delivery!.body, signature, m.webhookSecret)).toBe(true);
    expect(sp.webhooks.verify(Buffer.from(delivery!.body), signature, m.webhookSecret)).toBe(true);
    const event = sp.webhooks.parse(delivery!.body, signature, m.webhookSecret);
    expect(event).toMatchObject({ event: 'subscription.charge.approved', data: { subscriptionPlanId: link.subscriptionPlanId, status: 'APPROVED' } });

    expect(sp.webhooks.verify(delivery!.body, signature, 'whsec_another_secret_of_32_chars_x')).toBe(false);
    expect(sp.webhooks.verify(`${delivery!.body} `, signature, m.webhookSecret)).toBe(false);
    expect(sp.webhooks.verify(delivery!.body, 'not-hex', m.webhookSecret)).toBe(false);
    expect(() => sp.webhooks.parse(delivery!.body, signature.replace(/^./, (c) => (c === '0' ? '1' : '0')), m.webhookSecret)).toThrow(/signature does not match/);
    // A parsed object: refused, with why and what to do instead.
    expect(() => sp.webhooks.verify(JSON.parse(delivery!.body), signature, m.webhookSecret)).toThrow(
      /must be the raw request body \(a string or a Buffer, as it arrived\), not a parsed object/,
    );
    expect(() => sp.webhooks.parse(delivery!.body, signature, m.webhookSecret, { now: event.timestamp + 25 * 60 * 60 * 1000 })).toThrow(WebhookVerificationError);
    // The same two without a client, for a receiver that holds only the webhook secret.
    expect(webhooks.verify(delivery!.body, signature, m.webhookSecret)).toBe(true);
    expect(webhooks.parse(Buffer.from(delivery!.body), signature, m.webhookSecret)).toEqual(event);
    expect(webhooks.verify(delivery!.body, signature, 'whsec_another_secret_of_32_chars_x')).toBe(false);

    const [stored] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
    const listed = await sp.webhooks.list({ subscriptionPlanId: link.subscriptionPlanId });
    expect(listed.data[0]).toMatchObject({ id: stored!.id, body: delivery!.body });
    expect(await sp.webhooks.resend(stored!.id)).toEqual({ id: stored!.id, status: 'queued' });
  });
});
