import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as listenRoute } from '@/app/merchants/webhook-events/listen/route';
import { GET as listEventsRoute } from '@/app/merchants/webhook-events/route';
import { GET as statusRoute } from '@/app/merchants/plans/[subscriptionPlanId]/status/route';
import type { Db } from '@/db/client';
import { pinClockInMinute } from '@/test/clock';
import { createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { LISTEN_PATH } from './listen';

// `npm run webhooks:listen` beside the merchant's own backend (docs/webhooks.md#on-your-laptop):
// the listener polls once a second for two minutes while the backend makes 60 calls in the
// first of them, the most its shared bucket allows. The clock is the test's (the in-process
// limiter reads Date.now at each call): two minutes of requests, as they would be spaced, with no
// waiting. Against one shared bucket, as before, the same schedule is refused.

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

const SECONDS = 120;

/** Every answer of the schedule, listener's and backend's, by status. */
async function schedule(poll: (headers: Record<string, string>) => Promise<{ status: number }>) {
  const link = await createTestLink(db);
  const headers = link.merchant.headers;
  pinClockInMinute(0);
  const start = Date.now();
  const listener: number[] = [];
  const backend: number[] = [];
  for (let second = 0; second < SECONDS; second++) {
    vi.setSystemTime(start + second * 1000);
    listener.push((await poll(headers)).status);
    if (second < 60) {
      // The backend's 60 calls: its other endpoints, which share the "merchant" bucket.
      vi.setSystemTime(start + second * 1000 + 500);
      const backendCall = second % 2 === 0 ? call(listEventsRoute, { headers, path: '/merchants/webhook-events' }) : call(statusRoute, { headers, params: { subscriptionPlanId: link.subscriptionPlanId } });
      backend.push((await backendCall).status);
    }
  }
  return { listener, backend };
}

describe('webhooks:listen and the rate limits', () => {
  it('polls its own bucket: two minutes of polling beside 60 backend calls, not one 429 on either', async () => {
    const { listener, backend } = await schedule((headers) => call(listenRoute, { headers, path: `${LISTEN_PATH}?limit=100` }));
    expect(listener).toHaveLength(SECONDS);
    expect(backend).toHaveLength(60);
    expect(listener.filter((s) => s !== 200)).toEqual([]);
    expect(backend.filter((s) => s !== 200)).toEqual([]);
  }, 120_000);

  it('(the check can fail) polling the shared endpoint, as the listener did, the same schedule meets 429s', async () => {
    const { listener, backend } = await schedule((headers) => call(listEventsRoute, { headers, path: '/merchants/webhook-events?limit=100' }));
    expect([...listener, ...backend].filter((s) => s === 429).length).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a listener past its own limit with a 429, and still answers the backend', async () => {
    const merchant = await createTestMerchant(db);
    pinClockInMinute(0);
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await call(listenRoute, { headers: merchant.headers, path: LISTEN_PATH })).status);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    expect((await call(listEventsRoute, { headers: merchant.headers, path: '/merchants/webhook-events' })).status).toBe(200);
  }, 120_000);
});
