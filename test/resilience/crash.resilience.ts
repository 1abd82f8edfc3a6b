import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '@/test/webhook-receiver';
import { type AppServer, api, createLinks, createMerchant, eventually, operator, pay, scratchDatabase, startApp } from './harness';

// kill -9 during first payments and webhook deliveries, then a restart on the same database:
// nothing may be lost or stuck (docs/settlement.md). Whatever the instant of the kill, every
// PENDING charge is settled, every link is payable again or paid, and every event reaches the
// receiver at least once. And a graceful stop (SIGTERM) writes what it held in memory first.

const LINKS = 40;
// Approved, declined, PENDING-then-approved and processor-error cards, in turn.
const CARDS = ['4242424242424242', '4111111111111111', '4000000000000051', '4000000000000119'];
const CLIENT = `10.13.${process.pid % 250}.1`;

let db: Awaited<ReturnType<typeof scratchDatabase>>;
let receiver: Receiver;
let server: AppServer | undefined;

beforeAll(async () => {
  db = await scratchDatabase();
  receiver = await startReceiver();
  // Each delivery is held 1.5 s by the receiver, so the kill finds some in flight.
  receiver.respondWith((_req, res) => setTimeout(() => res.writeHead(200).end('ok'), 1500));
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await db?.drop();
});

const env = () => ({ DATABASE_URL: db.url, SANDBOX_PENDING_MS: '3000' });

describe('a crash mid-payment and mid-delivery', () => {
  it('loses nothing and leaves nothing stuck after a restart', async () => {
    server = await startApp(env(), 'crash-1');
    const merchant = await createMerchant(server.url, receiver.url);
    const links = await createLinks(server.url, merchant.auth, LINKS, 'crash');

    // Every payment at once; the kill comes as the first webhook reaches the receiver.
    const first = server;
    const answered: number[] = [];
    const payments = links.map((link, i) =>
      pay(first.url, link.token, CARDS[i % CARDS.length]!, CLIENT).then(
        (res) => answered.push(res.status),
        () => undefined,
      ),
    );
    await receiver.waitFor(1, 60_000);
    await first.crash();
    const killedAt = Date.now();
    await Promise.all(payments);
    const before = await db.sql<{ status: string; gateway: boolean; n: number }[]>`
      select status, gateway_transaction_id is not null as gateway, count(*)::int as n from transactions group by 1, 2 order by 1, 2`;
    const undelivered = await db.sql<{ n: number }[]>`select count(*)::int as n from webhook_events where dispatched_at is null`;
    console.info('at the kill', { answered: answered.length, transactions: before, undeliveredEvents: undelivered[0]!.n });

    server = await startApp(env(), 'crash-2');
    receiver.respondWith((_req, res) => res.writeHead(200).end('ok'));
    // The test clock moves the settler past its two-minute rule at once. The sandbox decides a
    // PENDING card SANDBOX_PENDING_MS after the charge on its own (wall) clock: every charge came
    // before the kill, so by then the processor has decided them all.
    await sleep(Math.max(0, killedAt + 3000 - Date.now()));
    const run = await api(server.url, '/admin/billing/run', { auth: operator, body: { now: Date.now() + 3 * 60_000 } });
    expect(run.status).toBe(200);
    console.info('settler after restart', run.json.settlement);

    // Every PENDING charge is final.
    expect(await db.sql`select id from transactions where status = 'PENDING'`).toEqual([]);
    // Every final charge has its one event, and every event reaches the receiver (leases of
    // deliveries cut by the kill lapse after a minute; the sweeper then sends them again).
    const finals = await db.sql<{ id: string }[]>`select id from transactions where status <> 'PENDING'`;
    const events = await db.sql<{ id: string; transaction_id: string }[]>`select id, transaction_id from webhook_events`;
    expect(events.map((e) => e.transaction_id).sort()).toEqual(finals.map((t) => t.id).sort());
    const delivered = await eventually(
      async () => db.sql<{ id: string }[]>`select distinct e.id from webhook_events e join webhook_attempts a on a.event_id = e.id where a.ok`,
      (rows) => rows.length === events.length,
      150_000,
    );
    expect(delivered.length).toBe(events.length);
    const ids = new Set(receiver.received.map((r) => r.headers['x-webhook-id']));
    for (const event of events) expect(ids.has(event.id)).toBe(true);
    console.info('deliveries', { events: events.length, received: receiver.received.length, redelivered: receiver.received.length - ids.size });

    // Every link is paid, or payable again.
    const plans = await db.sql<{ id: string; status: string }[]>`select id, status from subscription_plans`;
    const unpaid = links.filter((l) => plans.find((p) => p.id === l.planId)?.status === 'PENDING_ACTIVATION');
    for (const link of unpaid) {
      const res = await pay(server.url, link.token, '4242424242424242', `10.14.${process.pid % 250}.${unpaid.indexOf(link) % 250}`);
      expect(res.json?.status, `link ${link.planId}: ${res.status} ${res.text}`).toBe('APPROVED');
    }
    const paid = await db.sql<{ n: number }[]>`select count(*)::int as n from subscription_plans where status in ('ACTIVE', 'COMPLETED')`;
    expect(paid[0]!.n).toBe(LINKS);
  });
});

describe('a graceful stop', () => {
  it("writes the API keys' last use before the process ends", async () => {
    const stopping = await startApp(env(), 'stop-1');
    const merchant = await createMerchant(stopping.url, receiver.url);
    expect((await api(stopping.url, '/merchants/webhook-events', { auth: merchant.auth })).status).toBe(200);
    // SIGTERM well inside the few seconds the note waits to be written with others.
    await stopping.stop();
    const keys = await db.sql<{ last_used_at: Date | null }[]>`select last_used_at from api_keys where merchant_id = ${merchant.merchantId}`;
    expect(keys.length).toBe(1);
    expect(keys[0]!.last_used_at).not.toBeNull();
  });
});
