import { InngestTestEngine } from '@inngest/test';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { merchants, webhookAttempts, webhookEvents } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { fileReceiver, heldHandOffsPerTest } from '@/test/receiver-hooks';
import { webhookEventCreated, webhookEventResent } from '../client';
import { sendWebhookFunction, WEBHOOK_CONCURRENCY_PER_MERCHANT } from './send-webhook';
import { sweepWebhooksFunction } from './sweep-webhooks';

// The Inngest functions run by @inngest/test's engine (a fresh one per run), against the real
// database and a real HTTPS receiver.

let database: Database;
const receiver = fileReceiver();
// Payments only record their events here; each test decides how they are sent.
heldHandOffsPerTest();
beforeAll(async () => {
  database = await useTestDatabase();
});

async function approvedEvent() {
  const link = await createTestLink(database.db);
  await database.db.update(merchants).set({ webhookUrl: receiver.url }).where(eq(merchants.id, link.merchant.merchantId));
  await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  const [event] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
  return event!;
}

const run = (name: string, event: { id: string; merchantId: string }) =>
  new InngestTestEngine({ function: sendWebhookFunction }).execute({
    events: [{ name, id: event.id, data: { eventId: event.id, merchantId: event.merchantId } }],
  });

describe('send-webhook', () => {
  it('is configured without retries and with a per-merchant concurrency limit', () => {
    const { opts } = sendWebhookFunction as unknown as { opts: Record<string, unknown> };
    expect(opts.retries).toBe(0);
    expect(opts.concurrency).toEqual({ key: 'event.data.merchantId', limit: WEBHOOK_CONCURRENCY_PER_MERCHANT });
  });

  it('delivers the event in its "deliver" step', async () => {
    const event = await approvedEvent();
    const { result, ctx } = await run(webhookEventCreated.name, event);
    expect(ctx.step.run).toHaveBeenCalledWith('deliver', expect.any(Function));
    expect(result).toEqual({ status: 'sent', ok: true, statusCode: 200, error: null, nextRetryAt: null });
    expect(receiver.received.map((r) => r.body)).toEqual([event.body]);
  });

  it('delivers once when the same event reaches it twice', async () => {
    const event = await approvedEvent();
    const first = await run(webhookEventCreated.name, event);
    const second = await run(webhookEventCreated.name, event);
    expect([first.result, second.result]).toEqual([expect.objectContaining({ status: 'sent' }), { status: 'already_handled', nextRetryAt: null }]);
    expect(receiver.received).toHaveLength(1);
  });

  it('sends a resent event again, recorded as a manual attempt', async () => {
    const event = await approvedEvent();
    await run(webhookEventCreated.name, event);
    await run(webhookEventResent.name, event);
    const attempts = await database.db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, event.id));
    expect(attempts.map((a) => a.trigger)).toEqual(['automatic', 'manual']);
    expect(receiver.received.map((r) => r.headers['x-webhook-id'])).toEqual([event.id, event.id]);
  });
});

describe('sweep-webhooks', () => {
  it('hands every event left undelivered past the grace period to delivery, once', async () => {
    const event = await approvedEvent();
    await database.db.execute(sql`update webhook_events set created_at = now() - interval '5 minutes' where id = ${event.id}`);
    const { result } = await new InngestTestEngine({ function: sweepWebhooksFunction }).execute();
    expect(result).toEqual({ dispatched: 1 });
    await deliveriesSettled();
    expect(receiver.received.map((r) => r.headers['x-webhook-id'])).toEqual([event.id]);
    const again = await new InngestTestEngine({ function: sweepWebhooksFunction }).execute();
    expect(again.result).toEqual({ dispatched: 0 });
  });
});
