import { InngestTestEngine } from '@inngest/test';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATCH as patchMerchant } from '@/app/admin/merchants/[id]/route';
import type { Database } from '@/db/client';
import { emails, merchants, users, webhookAttempts, webhookEvents } from '@/db/schema';
import { webhookEventCreated } from '@/lib/inngest/client';
import { sendWebhookFunction } from '@/lib/inngest/functions/send-webhook';
import { payWithCard } from '@/lib/checkout/payments';
import { createPaymentLink } from '@/lib/plans/create-link';
import { createLinkBodySchema } from '@/lib/plans/schemas';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { linkBody } from '@/test/merchants';
import { fileReceiver, heldHandOffsPerTest } from '@/test/receiver-hooks';
import { reply } from '@/test/webhook-receiver';
import { deliverJob } from './deliver';
import { nextRetryAt, RETRY_DELAYS_MS, RETRY_WINDOW_MS } from './retries';
import { sweepAndDispatch } from './sweep';

// Opt-in webhook retries (docs/webhooks.md#retries), against the real database and a real HTTPS
// receiver. Time moves by a test clock: the sweeper is asked "what is due at t" and a due retry is
// taken as of the time it was due, so no test waits for the schedule.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let database: Database;
const receiver = fileReceiver();
const handOffs = heldHandOffsPerTest();
beforeAll(async () => {
  database = await useTestDatabase();
});

/** A merchant whose receiver is ours, retries on or off, and one approved payment's event (not yet sent). */
async function approvedEvent({ retries }: { retries: boolean }) {
  const link = await createTestLink(database.db);
  await database.db.update(merchants).set({ webhookUrl: receiver.url, webhookRetries: retries }).where(eq(merchants.id, link.merchant.merchantId));
  await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  const [event] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
  expect(handOffs.eventIds).toContain(event!.id);
  return event!;
}

const eventRow = async (id: string) => (await database.db.select().from(webhookEvents).where(eq(webhookEvents.id, id)))[0]!;
const attemptsOf = (id: string) => database.db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, id)).orderBy(asc(webhookAttempts.id));
const merchantRow = async (id: string) => (await database.db.select().from(merchants).where(eq(merchants.id, id)))[0]!;

/** Answers 500 to the first `failures` requests, then 200. */
function failFirst(failures: number) {
  let seen = 0;
  receiver.respondWith((req, res, body) => {
    seen += 1;
    return (seen <= failures ? reply(500, 'down') : reply(200, 'ok'))(req, res, body);
  });
}

describe('the retry schedule', () => {
  it('waits about 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then every 12 h, and stops within 3 days of the event', () => {
    const createdAt = new Date('2026-11-26T00:00:00.000Z');
    const waits: number[] = [];
    let now = createdAt;
    for (let retries = 0; ; retries++) {
      const at = nextRetryAt({ createdAt, retries }, now);
      if (!at) break;
      waits.push(at.getTime() - now.getTime());
      now = at;
    }
    expect(waits).toEqual([MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 12 * HOUR, 12 * HOUR, 12 * HOUR, 12 * HOUR]);
    expect(now.getTime() - createdAt.getTime()).toBeLessThanOrEqual(RETRY_WINDOW_MS);
    expect(now.getTime() + RETRY_DELAYS_MS.at(-1)! - createdAt.getTime()).toBeGreaterThan(RETRY_WINDOW_MS);
  });
});

describe('a merchant without retries (the default: docs/webhooks.md#events)', () => {
  it('gets one attempt, and nothing is scheduled or counted against its endpoint', async () => {
    const event = await approvedEvent({ retries: false });
    receiver.respondWith(reply(500, 'down'));
    const result = await deliverJob(database.db, { eventId: event.id, kind: 'created' });
    expect(result).toMatchObject({ status: 'sent', ok: false, statusCode: 500, nextRetryAt: null });
    expect((await eventRow(event.id)).nextRetryAt).toBeNull();
    expect((await merchantRow(event.merchantId)).webhookFailingSince).toBeNull();
    expect(await sweepAndDispatch(database.db, new Date(Date.now() + 4 * 24 * HOUR))).toBe(0);
    await deliveriesSettled();
    expect(await attemptsOf(event.id)).toHaveLength(1);
  });
});

describe('a merchant with retries on', () => {
  it('gets the event on the 4th attempt after three 500s: same id, same bytes, every attempt listed', async () => {
    const event = await approvedEvent({ retries: true });
    failFirst(3);
    const first = await deliverJob(database.db, { eventId: event.id, kind: 'created' });
    expect(first).toMatchObject({ ok: false, statusCode: 500 });
    let clock = new Date(first.nextRetryAt!);
    for (let retry = 1; retry <= 3; retry++) {
      // Not due a moment before; due at its time. The sweeper (a fresh process would do the same) sends it.
      expect(await sweepAndDispatch(database.db, new Date(clock.getTime() - 1))).toBe(0);
      expect(await sweepAndDispatch(database.db, clock)).toBe(1);
      await deliveriesSettled();
      const row = await eventRow(event.id);
      if (retry < 3) {
        expect(row.nextRetryAt!.getTime() - clock.getTime()).toBe(RETRY_DELAYS_MS[retry]);
        clock = row.nextRetryAt!;
      } else {
        expect(row.nextRetryAt).toBeNull();
      }
    }
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.body))).toEqual(new Set([event.body]));
    expect(new Set(receiver.received.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([event.id]));
    const attempts = await attemptsOf(event.id);
    expect(attempts.map((a) => [a.trigger, a.statusCode, a.ok])).toEqual([
      ['automatic', 500, false],
      ['automatic', 500, false],
      ['automatic', 500, false],
      ['automatic', 200, true],
    ]);
    expect((await merchantRow(event.merchantId)).webhookFailingSince).toBeNull();
    expect(await sweepAndDispatch(database.db, new Date(clock.getTime() + 4 * 24 * HOUR))).toBe(0);
  });

  it('sends a due retry once however many instances take it at the same time', async () => {
    const event = await approvedEvent({ retries: true });
    receiver.respondWith(reply(500, 'down'));
    const first = await deliverJob(database.db, { eventId: event.id, kind: 'created' });
    receiver.respondWith(reply(200, 'ok'));
    const results = await Promise.all(
      Array.from({ length: 5 }, () => deliverJob(database.db, { eventId: event.id, kind: 'retry', dueAt: first.nextRetryAt! })),
    );
    expect(results.filter((r) => r.status === 'sent')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'already_handled')).toHaveLength(4);
    expect(receiver.received).toHaveLength(2);
  });

  it('stops after 3 days: the schedule ends, and a failure is not retried past it', async () => {
    const event = await approvedEvent({ retries: true });
    receiver.respondWith(reply(503, 'down'));
    let result = await deliverJob(database.db, { eventId: event.id, kind: 'created' });
    let attempts = 1;
    while (result.nextRetryAt) {
      result = await deliverJob(database.db, { eventId: event.id, kind: 'retry', dueAt: result.nextRetryAt });
      attempts += 1;
    }
    // The first attempt and 10 retries, the last within 3 days of the event; then the endpoint
    // (failing since the first) is not yet 3 days old in failures, so it stays enabled.
    expect(attempts).toBe(11);
    expect((await attemptsOf(event.id)).every((a) => !a.ok)).toBe(true);
    expect((await eventRow(event.id)).nextRetryAt).toBeNull();
    expect((await merchantRow(event.merchantId)).webhookDisabledAt).toBeNull();
  });

  it('disables an endpoint that failed every delivery for 3 days, e-mails the merchant, and sends nothing more until re-enabled', async () => {
    const event = await approvedEvent({ retries: true });
    const merchantId = event.merchantId;
    const email = `owner-${event.id.slice(-6).toLowerCase()}@tienda.example`;
    await database.db.insert(users).values({ id: `user-${event.id}`, merchantId, name: 'Dueña', email });
    // Failing for 3 days already (its earlier events), and another event waiting for a retry.
    const threeDaysAgo = new Date(Date.now() - RETRY_WINDOW_MS - 1_000);
    await database.db.update(merchants).set({ webhookFailingSince: threeDaysAgo }).where(eq(merchants.id, merchantId));
    receiver.respondWith(reply(500, 'down'));

    const result = await deliverJob(database.db, { eventId: event.id, kind: 'created' });
    expect(result).toMatchObject({ status: 'sent', ok: false, nextRetryAt: null });
    const merchant = await merchantRow(merchantId);
    expect(merchant.webhookDisabledAt).not.toBeNull();
    const [sent] = await database.db.select().from(emails).where(and(eq(emails.merchantId, merchantId), eq(emails.kind, 'webhook_disabled')));
    expect(sent).toMatchObject({ kind: 'webhook_disabled', toAddress: email, subject: 'Desactivamos su webhook de ServicePay' });
    expect(sent!.text).toContain(receiver.url);
    expect(sent!.text).toContain('/portal/settings/webhooks');

    // Disabled: a new event is recorded, and not sent.
    const body = createLinkBodySchema.parse(linkBody());
    const link = await database.db.transaction((tx) => createPaymentLink(tx, merchantId, body));
    await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
    const [later] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
    expect(await deliverJob(database.db, { eventId: later!.id, kind: 'created' })).toMatchObject({ status: 'disabled' });
    expect(await attemptsOf(later!.id)).toEqual([]);

    // Re-enabled (operator API; the portal's button does the same): its failing days start afresh.
    const res = await call(patchMerchant, { method: 'PATCH', headers: adminHeaders(), params: { id: merchantId }, body: { webhookEnabled: true } });
    expect(res.json).toMatchObject({ webhookDisabledAt: null, webhookRetries: true });
    expect((await merchantRow(merchantId)).webhookFailingSince).toBeNull();
  });
});

describe('the send-webhook Inngest function with retries on', () => {
  it('sleeps until each retry is due and delivers it in its own step, until one succeeds', async () => {
    const event = await approvedEvent({ retries: true });
    failFirst(3);
    const sleeps = [1, 2, 3].map((n) => ({ id: `wait-for-retry-${n}`, handler: () => undefined }));
    const { result, ctx } = await new InngestTestEngine({ function: sendWebhookFunction }).execute({
      events: [{ name: webhookEventCreated.name, id: event.id, data: { eventId: event.id, merchantId: event.merchantId } }],
      steps: sleeps,
    });
    expect(result).toMatchObject({ status: 'sent', ok: true, statusCode: 200, nextRetryAt: null });
    const sleepUntil = (ctx.step.sleepUntil as unknown as { mock: { calls: [string, string][] } }).mock.calls;
    expect(sleepUntil.map(([id]) => id)).toEqual(['wait-for-retry-1', 'wait-for-retry-2', 'wait-for-retry-3']);
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.body))).toEqual(new Set([event.body]));
    expect((await attemptsOf(event.id)).map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);
  });
});
