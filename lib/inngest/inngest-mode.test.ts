import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { webhookEvents } from '@/db/schema';
import { resetEnvForTests } from '@/lib/env';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { INNGEST_FUNCTION_IDS, REGISTERED_FUNCTION_IDS, registeredFunctionId } from '@/lib/inngest/function-ids';

// With Inngest configured (docs/operations.md#running-it), committed events go to Inngest as events whose id is
// the outbox id, and /api/inngest serves the functions. Inngest itself is played by a local HTTP
// stub that records what it is sent: nothing leaves loopback.

interface Recorded {
  method: string;
  path: string;
  body: string;
}
const recorded: Recorded[] = [];
const stub = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    recorded.push({ method: req.method!, path: req.url!, body });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ids: [], status: 200, ok: true, modified: true }));
  });
});

let database: Database;
beforeAll(async () => {
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    INNGEST_EVENT_KEY: 'test-event-key',
    INNGEST_SIGNING_KEY: 'signkey-test-0123456789abcdef0123456789abcdef',
    INNGEST_BASE_URL: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
  });
  resetEnvForTests();
  database = await useTestDatabase();
  // What the server's start-up does (lib/bootstrap.ts): with Inngest configured, the webhook
  // queue is Inngest. Imported after the settings: the Inngest client reads them when created.
  const { startRunners } = await import('@/lib/runners');
  startRunners();
});
afterAll(async () => {
  (await import('@/lib/webhooks/queue')).installWebhookQueue(undefined);
  for (const name of ['INNGEST_EVENT_KEY', 'INNGEST_SIGNING_KEY', 'INNGEST_BASE_URL']) delete process.env[name];
  resetEnvForTests();
  await new Promise((resolve) => stub.close(resolve));
});

describe('with Inngest configured', () => {
  it('sends each committed event to Inngest once, with the outbox id as the event id', async () => {
    // Imported after the settings: the Inngest client reads them when it is created.
    const { payWithCard } = await import('@/lib/checkout/payments');
    const { handOffsSettled } = await import('@/lib/unit-of-work');
    const { webhookQueue } = await import('@/lib/webhooks/queue');
    const link = await createTestLink(database.db);
    await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
    await handOffsSettled();
    const [event] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
    // A second hand-off of the same event (a retried request, say) carries the same id, which
    // Inngest de-duplicates; send-webhook's lease makes it one POST even if it ran twice.
    await webhookQueue().enqueue([{ eventId: event!.id, merchantId: link.merchant.merchantId, kind: 'created' }]);
    const sends = recorded.filter((r) => r.path === '/e/test-event-key');
    expect(sends).toHaveLength(2);
    for (const send of sends) {
      expect(JSON.parse(send.body)).toEqual([
        expect.objectContaining({ name: 'servicepay/webhook.created', id: event!.id, data: { eventId: event!.id, merchantId: link.merchant.merchantId } }),
      ]);
    }
  });

  it('serves the functions at /api/inngest: PUT registers every function, unsigned GET and POST are refused', async () => {
    // Next hands these a NextRequest; a plain Request carries everything they read.
    const { GET, POST, PUT } = (await import('@/app/api/inngest/route')) as unknown as Record<string, Parameters<typeof call>[0]>;
    const route = { GET: GET!, POST: POST!, PUT: PUT! };
    const put = await call(route.PUT, { method: 'PUT', path: '/api/inngest' });
    expect(put.status).toBe(200);
    const registration = recorded.find((r) => r.path.startsWith('/fn/register'));
    expect(JSON.parse(registration!.body).functions.map((f: { id: string }) => f.id).sort()).toEqual(REGISTERED_FUNCTION_IDS);

    // Only Inngest, signing with the signing key, may read the functions or run a step.
    expect((await call(route.GET, { path: '/api/inngest' })).status).toBe(401);
    const post = await call(route.POST, { method: 'POST', path: `/api/inngest?fnId=${registeredFunctionId(INNGEST_FUNCTION_IDS.sendWebhook)}&stepId=step`, body: {} });
    expect(post.status).toBe(401);
  });
});
