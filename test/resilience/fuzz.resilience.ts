import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '@/test/webhook-receiver';
import { fuzz, sendOne } from './fuzz';
import { type AppServer, scratchDatabase, startApp } from './harness';

// The seeded fuzz run (test/resilience/fuzz.ts, corpus in fuzz-corpus.json) against one server.
// A new seed every run, printed (and in the test's name) so that a failure can be replayed with
// FUZZ_SEED=<seed>; FUZZ_REQUESTS changes the length of the run.

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);
console.info(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED} npm run test:resilience -- test/resilience/fuzz.resilience.ts)`);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 20_000);

let db: Awaited<ReturnType<typeof scratchDatabase>>;
let receiver: Receiver;
let server: AppServer;

beforeAll(async () => {
  db = await scratchDatabase();
  receiver = await startReceiver();
  server = await startApp({ DATABASE_URL: db.url, SANDBOX_PENDING_MS: '3000' }, 'fuzz');
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await db?.drop();
});

describe('seeded fuzz run', () => {
  // What earlier seeds found, sent as they were (docs/settlement.md#no-5xx-for-a-bad-request).
  it('answers a client-router request whose router state Next.js cannot read with a 400, not a 500 (seed 1056195183)', async () => {
    const headers = { RSC: '1', 'Next-Router-State-Tree': '%%%', 'X-Request-Id': 'req_fuzz_router_state' };
    for (const [method, path] of [
      ['GET', '/checkout/session/./payments/txn_0Vc4LdyRXW6x0cFRHJXZN8dQ'],
      ['HEAD', '/nope/dqGP3XJRxN'],
      ['GET', '/pay/abcdefghij'],
      ['GET', '/portal/activity'],
    ] as const) {
      const reply = await sendOne(server.url, { method, path, headers });
      expect(`${method} ${path} → ${reply.status}`).toBe(`${method} ${path} → 400`);
      expect(reply.headers['x-request-id']).toBe('req_fuzz_router_state');
    }
  });

  it(`answers ${REQUESTS} fuzzed requests (seed ${SEED}), each of them, with no 5xx, and every error of our routes as JSON with a request id`, async () => {
    const started = Date.now();
    const report = await fuzz(server.url, { seed: SEED, requests: REQUESTS, concurrency: 8, webhookUrl: receiver.url });
    console.info('fuzz', { seed: report.seed, requests: report.requests, seconds: Math.round((Date.now() - started) / 1000), byStatus: report.byStatus, transportErrors: report.transportErrors });
    if (report.transportErrorDetails.length) console.info('transport errors', report.transportErrorDetails);
    expect(report.serverErrors).toEqual([]);
    // Every request gets an answer, a refusal included: a connection reset is no answer.
    expect(report.transportErrorDetails).toEqual([]);
    expect(report.errorsWithoutRequestId).toEqual([]);
    expect(report.requests).toBe(REQUESTS);
  }, 900_000);
});
