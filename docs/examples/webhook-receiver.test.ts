import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { merchants, webhookEvents } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { deliverEvent } from '@/lib/webhooks/deliver';
import { holdWebhookHandOffs, restoreWebhookQueue } from '@/test/webhook-queue';
import { postWebhook } from '@/lib/webhooks/http';
import { webhookHeaders } from '@/lib/webhooks/signature';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { testCertificates } from '@/test/tls';
import { type ServicePayEvent, servicePayWebhooks } from './webhook-receiver';

// The receiver the README gives merchants, run as it is written against our real deliveries.

const source = fs.readFileSync(path.join(__dirname, 'webhook-receiver.ts'), 'utf8');

it('is the code the README shows, byte for byte', () => {
  const readme = fs.readFileSync(path.join(__dirname, '../../README.md'), 'utf8');
  const block = /<!-- webhook-receiver:start -->\n```ts\n([\s\S]*?)```\n<!-- webhook-receiver:end -->/.exec(readme);
  expect(block?.[1]).toBe(source);
});

let database: Database;
let url: string;
let server: https.Server;
const handled: ServicePayEvent[] = [];
const seen = new Set<string>();
/** The receiving merchant's secret: each test pays as a new merchant. */
let secret = '';

beforeAll(async () => {
  database = await useTestDatabase();
  holdWebhookHandOffs();
  server = https.createServer(testCertificates().server, (req, res) =>
    servicePayWebhooks({ secret, handle: async (event) => void handled.push(event), seen })(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  restoreWebhookQueue();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  handled.length = 0;
});

async function paidEvent() {
  const link = await createTestLink(database.db);
  await database.db.update(merchants).set({ webhookUrl: url }).where(eq(merchants.id, link.merchant.merchantId));
  secret = link.merchant.webhookSecret;
  await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  const [event] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
  return { event: event! };
}

/** A POST to the receiver with these bytes and headers, as anyone could send it. */
const forge = (body: string, headers: Record<string, string>) => postWebhook({ url, body, headers, allowPrivateNetwork: true });

describe('the README receiver', () => {
  it('accepts a real delivery (200) and hands over the event', async () => {
    const { event } = await paidEvent();
    const result = await deliverEvent(database.db, event.id, { trigger: 'automatic' });
    expect(result).toMatchObject({ status: 'sent', attempt: { ok: true, statusCode: 200, responseExcerpt: 'ok' } });
    expect(handled).toEqual([JSON.parse(event.body)]);
  });

  it('acknowledges a resend of the same event without handling it twice', async () => {
    const { event } = await paidEvent();
    await deliverEvent(database.db, event.id, { trigger: 'automatic' });
    const again = await deliverEvent(database.db, event.id, { trigger: 'manual' });
    expect(again).toMatchObject({ attempt: { statusCode: 200, responseExcerpt: 'duplicate' } });
    expect(handled).toHaveLength(1);
  });

  it('refuses (401) a wrong secret, a re-serialized body, a missing or short signature, and never throws', async () => {
    const { event } = await paidEvent();
    const signed = webhookHeaders(event, secret);
    const reserialized = JSON.stringify(JSON.parse(event.body), null, 2);
    for (const [body, headers] of [
      [event.body, webhookHeaders(event, 'whsec_not-the-merchant-secret-000000000')],
      [reserialized, signed],
      [event.body, { ...signed, 'X-Webhook-Signature': '' }],
      [event.body, { ...signed, 'X-Webhook-Signature': 'abc' }],
      [event.body, { ...signed, 'X-Webhook-Signature': 'zz'.repeat(32) }],
    ] as const) {
      expect(await forge(body, headers)).toMatchObject({ statusCode: 401, responseExcerpt: 'invalid signature' });
    }
    expect(handled).toEqual([]);
  });

  it('refuses (400) a correctly signed event older than a day, or one that is not an event, saying why', async () => {
    await paidEvent();
    const stale = JSON.stringify({ event: 'subscription.charge.approved', data: {}, timestamp: Date.now() - 25 * 60 * 60 * 1000 });
    const response = await forge(stale, webhookHeaders({ id: 'evt_stale', body: stale }, secret));
    expect(response).toMatchObject({ statusCode: 400, responseExcerpt: expect.stringMatching(/^webhooks: the event is too old \(9\d{4} s\)/) });
    for (const [body, why] of [
      ['not json', 'webhooks: the body is not JSON'],
      ['{"hello":"world"}', 'webhooks: the body is not a ServicePay event'],
    ] as const) {
      expect(await forge(body, webhookHeaders({ id: 'evt_odd', body }, secret))).toMatchObject({ statusCode: 400, responseExcerpt: why });
    }
    expect(handled).toEqual([]);
  });
});
