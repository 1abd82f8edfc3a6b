import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '@/test/webhook-receiver';
import { type AppServer, api, createLinks, createMerchant, eventually, pay, scratchDatabase, startApp } from './harness';

// PostgreSQL drops the app's connections while customers pay (docs/settlement.md#when-the-database-drops-its-connections):
// its backends are terminated three times, 5 s apart, under 20 paying clients. No reply is a bare
// 500 (a 503 says when to retry), every customer the processor charged has a final transaction
// within 30 s of the database being back, the pool answers again within seconds, and the server
// throws nothing uncaught.

const CLIENTS = 20;
const LINKS = 300;
const CUTS = 3;
const KILLER = 'resilience-killer';

let db: Awaited<ReturnType<typeof scratchDatabase>>;
let killer: postgres.Sql;
let receiver: Receiver;
let server: AppServer;

beforeAll(async () => {
  db = await scratchDatabase();
  killer = postgres(db.url, { max: 1, onnotice: () => {}, connection: { application_name: KILLER } });
  receiver = await startReceiver();
  server = await startApp({ DATABASE_URL: db.url, SANDBOX_PENDING_MS: '1000' }, 'db-cut');
});
afterAll(async () => {
  await server?.stop();
  await killer?.end({ timeout: 1 });
  await receiver?.close();
  await db?.drop();
});

/** Terminates every backend on the database but the killer's own; answers how many. */
async function cut(): Promise<number> {
  const killed = await killer<{ n: number }[]>`
    select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and application_name <> ${KILLER}`;
  return killed[0]!.n;
}

describe('PostgreSQL terminating the app\'s connections during payments', () => {
  it('answers no bare 500, records every charge the processor took, and throws nothing uncaught', async () => {
    // Link creation is limited to 60 a minute per merchant: several merchants make the links.
    const links: { token: string; planId: string }[] = [];
    for (let m = 0; m < Math.ceil(LINKS / 50); m++) {
      const merchant = await createMerchant(server.url, receiver.url);
      links.push(...(await createLinks(server.url, merchant.auth, 50, `db-cut-${m}`)));
    }
    const replies: { status: number; retryAfter: string | null; code?: string; payment?: string }[] = [];
    let next = 0;
    let paying = true;
    const client = async (n: number) => {
      while (paying && next < links.length) {
        const link = links[next++]!;
        const res = await pay(server.url, link.token, '4242424242424242', `10.44.${n}.1`).catch(() => null);
        if (res) replies.push({ status: res.status, retryAfter: res.headers.get('retry-after'), code: res.json?.error?.code, payment: res.json?.status });
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    const killed: number[] = [];
    for (let i = 0; i < CUTS; i++) {
      await sleep(i === 0 ? 1000 : 5000);
      killed.push(await cut());
    }
    const back = Date.now();
    paying = false;
    await Promise.all(clients);

    const count: Record<string, number> = {};
    for (const r of replies) count[`${r.status} ${r.payment ?? r.code ?? ''}`] = (count[`${r.status} ${r.payment ?? r.code ?? ''}`] ?? 0) + 1;
    console.info('db cut', { killed, replies: count });
    expect(killed.every((n) => n > 0)).toBe(true);
    // Never a bare 500: a 503 names itself and says when to retry; a payment is answered, maybe PENDING.
    expect(replies.filter((r) => r.status >= 500 && r.status !== 503)).toEqual([]);
    for (const r of replies.filter((r) => r.status === 503)) expect(r).toMatchObject({ retryAfter: '5', code: 'service_unavailable' });
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(0);

    // The pool answers again within seconds.
    const health = await eventually(() => api(server.url, '/api/health'), (r) => r.status === 200, 10_000);
    expect(health.status).toBe(200);

    // Every charge the processor took has a final transaction within 30 s of the database being back.
    const unsettled = () => db.sql<{ id: string }[]>`
      select t.id from transactions t join sandbox_charges c on c.reference = t.id where t.status = 'PENDING'`;
    const left = await eventually(unsettled, (rows) => rows.length === 0, 30_000 - (Date.now() - back));
    expect(left).toEqual([]);
    const charged = await db.sql<{ n: number }[]>`select count(*)::int as n from sandbox_charges`;
    console.info('charged', charged[0]!.n, 'settled within', Date.now() - back, 'ms of the last cut');

    // Nothing thrown uncaught, and the server still runs.
    expect(server.alive()).toBe(true);
    const logged = fs.readFileSync(server.logFile, 'utf8');
    expect(logged).not.toMatch(/uncaughtException|unhandledRejection|Cannot read properties of null/);
  });
});
