import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstashRestServer, type UpstashRestServer } from '@/test/upstash-rest-server';
import { type Receiver, startReceiver } from '@/test/webhook-receiver';
import { type AppServer, api, createLinks, createMerchant, eventually, pay, scratchDatabase, startApp } from './harness';
import { requestAfterEarly413 } from './fuzz';

// Three `next start` instances on one PostgreSQL database and one Redis (through the
// Upstash-compatible endpoint of test/upstash-rest-server.ts), as a scaled-out deployment runs:
// limits are shared, a token approves once, an event is delivered once.

const UPSTASH_TOKEN = 'resilience-upstash-token';
// A client address of this run only: Redis is shared with other runs on the machine.
const CLIENT = `10.23.${process.pid % 250}.${Math.floor(Math.random() * 250)}`;

let db: Awaited<ReturnType<typeof scratchDatabase>>;
let receiver: Receiver;
let upstash: UpstashRestServer;
const instances: AppServer[] = [];

beforeAll(async () => {
  db = await scratchDatabase();
  receiver = await startReceiver();
  upstash = await startUpstashRestServer({ token: UPSTASH_TOKEN });
  const env = { DATABASE_URL: db.url, SANDBOX_PENDING_MS: '3000', UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: UPSTASH_TOKEN };
  instances.push(...(await Promise.all([1, 2, 3].map((n) => startApp(env, `scale-${n}`)))));
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await upstash?.close();
  await receiver?.close();
  await db?.drop();
});

const on = (i: number) => instances[i % instances.length]!.url;

describe('three instances, one PostgreSQL, one Redis', () => {
  it('refuses the 61st checkout-session request of one client across the instances', async () => {
    const merchant = await createMerchant(on(0), receiver.url);
    const [link] = await createLinks(on(0), merchant.auth, 1, 'limit');
    // Not in the last seconds of a minute: the sliding window's previous minute then weighs
    // nothing yet, so the count is exactly what this test sent.
    const second = new Date().getUTCSeconds();
    if (second > 40) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await api(on(i), `/checkout/session/${link!.token}`, { headers: { 'X-Forwarded-For': CLIENT } })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await api(on(60), `/checkout/session/${link!.token}`, { headers: { 'X-Forwarded-For': CLIENT } });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('rate_limited');
  });

  it('approves each token once however many instances take its payments at the same time', async () => {
    const merchant = await createMerchant(on(1), receiver.url);
    const links = await createLinks(on(1), merchant.auth, 10, 'race');
    const replies = await Promise.all(
      links.flatMap((link, l) => Array.from({ length: 6 }, (_, k) => pay(on(k), link.token, '4242424242424242', `10.24.${l}.${k}`).then((r) => ({ link, r })))),
    );
    for (const link of links) {
      const mine = replies.filter((x) => x.link === link).map((x) => x.r);
      expect(mine.filter((r) => r.status === 200 && r.json.status === 'APPROVED')).toHaveLength(1);
      expect(mine.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);
    }
    const approved = await db.sql<{ plan_id: string; n: number }[]>`
      select plan_id, count(*)::int as n from transactions where status = 'APPROVED' and plan_id in ${db.sql(links.map((l) => l.planId))} group by 1`;
    expect(approved.map((a) => a.n)).toEqual(links.map(() => 1));
  });

  it('delivers each event once, whichever instance records it and whichever sweeps', async () => {
    const events = await db.sql<{ id: string }[]>`select id from webhook_events`;
    // One approval for each of the ten links above.
    expect(events.length).toBeGreaterThanOrEqual(10);
    await eventually(async () => new Set(receiver.received.map((r) => r.headers['x-webhook-id'])).size, (n) => n === events.length, 60_000);
    // A sweep of every instance after that (every 15 s) sends nothing again.
    await new Promise((r) => setTimeout(r, 16_000));
    const counts = new Map<string, number>();
    for (const r of receiver.received) counts.set(String(r.headers['x-webhook-id']), (counts.get(String(r.headers['x-webhook-id'])) ?? 0) + 1);
    expect(events.map((e) => counts.get(e.id))).toEqual(events.map(() => 1));
  });

  it('closes the connection after an early 413, so the next request of a pooled client is not read as its body', async () => {
    const outcome = await requestAfterEarly413(on(2));
    expect(outcome.first).toBe('HTTP/1.1 413 Payload Too Large');
    expect(outcome.reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(outcome.closed).toBe(true);
    expect(outcome.secondAnswered).toBe(false);
    // The client's next connection is served as usual.
    expect((await api(on(2), '/api/health')).status).toBe(200);
  });
});
