import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from '@upstash/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '@/lib/log';
import { pingWithToken, startUpstashRestServer, type UpstashRestServer } from '@/test/upstash-rest-server';
import { createMemoryRateLimiter, createUpstashRateLimiter, rateLimitHeaders, type LimitBucket, type RateLimiter } from '.';

// The Upstash limiter end to end: @upstash/ratelimit → @upstash/redis → the REST stand-in → the
// real local Redis. Each test has its own key prefix; nothing is flushed, only our keys deleted.

const MINUTE = 60_000;
const TOKEN = `token-${randomUUID()}`;
const RUN_PREFIX = `servicepay:test:rl:${randomUUID()}`;

let server: UpstashRestServer;
let redis: Redis;

beforeAll(async () => {
  server = await startUpstashRestServer({ token: TOKEN });
  redis = new Redis({ url: server.url, token: TOKEN, enableTelemetry: false });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

afterAll(async () => {
  const keys = await redis.keys(`${RUN_PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  await server.close();
});

/** A loopback port that was just free and where nothing listens now. */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function limiterFor(overrides: { url?: string; token?: string } = {}) {
  return createUpstashRateLimiter({
    url: overrides.url ?? server.url,
    token: overrides.token ?? TOKEN,
    prefix: `${RUN_PREFIX}:${randomUUID()}`,
  });
}

/** Pins Date (timers stay real) so a run cannot straddle a minute and see the window slide. */
function pinClock(at: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
}

const minuteStart = () => Math.floor(Date.now() / MINUTE) * MINUTE;

async function spend(limiter: RateLimiter, bucket: LimitBucket, id: string, n: number) {
  const results = [];
  for (let i = 0; i < n; i++) results.push(await limiter.limit(bucket, id));
  return results;
}

describe('upstash rate limiter against the real Redis', () => {
  it('refuses the 61st create-link request in a minute, with Retry-After', async () => {
    const t0 = minuteStart();
    pinClock(t0 + 20_000);
    const limiter = limiterFor();
    const warn = vi.spyOn(log, 'warn');
    const served = await spend(limiter, 'create-link', 'pk_test_a', 60);
    expect(served.map((r) => r.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    expect(served.every((r) => r.success && r.limit === 60)).toBe(true);

    const refused = await limiter.limit('create-link', 'pk_test_a');
    expect(refused).toEqual({ success: false, limit: 60, remaining: 0, reset: t0 + MINUTE });
    expect(rateLimitHeaders(refused, t0 + 20_000)).toMatchObject({ 'Retry-After': '40', 'RateLimit-Remaining': '0' });
    expect(warn).not.toHaveBeenCalled();
  });

  it('refuses the 121st plan-status request, and leaves a second identifier alone', async () => {
    pinClock(minuteStart() + 5_000);
    const limiter = limiterFor();
    const served = await spend(limiter, 'plan-status', 'pk_test_a', 120);
    expect(served.every((r) => r.success && r.limit === 120)).toBe(true);
    expect((await limiter.limit('plan-status', 'pk_test_a')).success).toBe(false);
    expect(await limiter.limit('plan-status', 'pk_test_b')).toMatchObject({ success: true, remaining: 119 });
    expect(await limiter.limit('merchant', 'pk_test_a')).toMatchObject({ success: true, remaining: 59 });
  });

  it('slides like the memory limiter, and frees room before the minute ends', async () => {
    const t0 = minuteStart() - 5 * MINUTE;
    pinClock(t0 + 1_000);
    const limiter = limiterFor();
    await spend(limiter, 'checkout-session', '203.0.113.7', 60);
    expect((await limiter.limit('checkout-session', '203.0.113.7')).success).toBe(false);

    vi.setSystemTime(t0 + MINUTE + 30_000);
    expect((await spend(limiter, 'checkout-session', '203.0.113.7', 30)).every((r) => r.success)).toBe(true);
    expect((await limiter.limit('checkout-session', '203.0.113.7')).success).toBe(false);

    // Refused a moment ago, yet room frees up before the minute ends (15 of the old 60 still
    // weigh): no local cache may keep refusing until then.
    vi.setSystemTime(t0 + MINUTE + 45_000);
    expect((await spend(limiter, 'checkout-session', '203.0.113.7', 15)).every((r) => r.success)).toBe(true);
    expect((await limiter.limit('checkout-session', '203.0.113.7')).success).toBe(false);
  });
});

describe('the shared and the in-process limiter', () => {
  it('draw a weight (a batch of usage reports) alike: refused when it overflows the minute, and counted', async () => {
    const t0 = minuteStart();
    pinClock(t0 + 30_000);
    const limiters = { shared: limiterFor(), memory: createMemoryRateLimiter() };
    for (const [id, weights] of [['pk_test_fits', [9_990, 10]], ['pk_test_over', [9_990, 20, 1]]] as const) {
      const answers = { shared: [] as unknown[], memory: [] as unknown[] };
      for (const [name, limiter] of Object.entries(limiters)) {
        for (const weight of weights) answers[name as keyof typeof answers].push(await limiter.limit('usage', id, weight));
      }
      expect(answers.shared).toEqual(answers.memory);
    }
    const memory = createMemoryRateLimiter();
    expect(await memory.limit('usage', 'pk_test_a', 9_990)).toMatchObject({ success: true, remaining: 10 });
    expect(await memory.limit('usage', 'pk_test_a', 10)).toMatchObject({ success: true, remaining: 0 });
    expect(await memory.limit('usage', 'pk_test_b', 9_990)).toMatchObject({ success: true, remaining: 10 });
    expect(await memory.limit('usage', 'pk_test_b', 20)).toMatchObject({ success: false, remaining: 0 });
    expect(await memory.limit('usage', 'pk_test_b')).toMatchObject({ success: false });
  });

  it('agree request by request across a minute boundary', async () => {
    // A burst of 60 late in a minute, then a request every 50 ms across the boundary.
    const t0 = minuteStart() - 10 * MINUTE;
    pinClock(t0 + 59_000);
    const shared = limiterFor();
    const memory = createMemoryRateLimiter();
    const answers = { shared: [] as boolean[], memory: [] as boolean[] };
    const at = [...Array.from({ length: 60 }, () => t0 + 59_000), ...Array.from({ length: 200 }, (_, i) => t0 + 59_500 + i * 50)];
    for (const time of at) {
      vi.setSystemTime(time);
      answers.shared.push((await shared.limit('create-link', 'pk_test_edge')).success);
      answers.memory.push((await memory.limit('create-link', 'pk_test_edge')).success);
    }
    expect(answers.shared).toEqual(answers.memory);
    expect(answers.shared.filter(Boolean).length).toBeGreaterThan(60);
  });

  it('both admit one over the limit in a burst that straddles a minute boundary, and no more', async () => {
    // 30 in the last 300 ms of a minute, 32 in the first 320 ms of the next: the previous
    // minute's 30 weigh 29 (rounded down), so the 61st gets through and the 62nd does not
    // (docs/api.md#rate-limits: accepted).
    const t0 = minuteStart() - 20 * MINUTE;
    for (const limiter of [limiterFor(), createMemoryRateLimiter()]) {
      pinClock(t0 + 59_700);
      const served = [];
      for (let i = 0; i < 62; i++) {
        vi.setSystemTime(t0 + 59_700 + i * 10);
        served.push((await limiter.limit('create-link', 'pk_test_burst')).success);
      }
      expect(served.filter(Boolean)).toHaveLength(61);
      expect(served.at(-1)).toBe(false);
    }
  });
});

describe('upstash rate limiter when Redis fails', () => {
  it('logs the outage when it starts and when it ends, not on every request', async () => {
    const port = await closedPort();
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const info = vi.spyOn(log, 'info').mockImplementation(() => {});
    // One limiter whose endpoint is down, then up: a proxy to the stand-in that refuses at first.
    let up = false;
    const proxy = http.createServer((req, res) => {
      if (!up) return void req.socket.destroy();
      const upstream = http.request(new URL(req.url ?? '/', server.url), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    try {
      const limiter = limiterFor({ url: `http://127.0.0.1:${port}` });
      for (let i = 0; i < 50; i++) expect((await limiter.limit('merchant', 'pk_test_a')).success).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
      up = true;
      expect(await limiter.limit('merchant', 'pk_test_a')).toMatchObject({ success: true, remaining: 59 });
      await limiter.limit('merchant', 'pk_test_a');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(info).toHaveBeenCalledTimes(1);
      expect(info).toHaveBeenCalledWith('rate limiter available again', { letThrough: 50, downForMs: expect.any(Number) });
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });


  it('lets the request through after about a second when Redis hangs, logs once, and aborts the call', async () => {
    const closed: Promise<void>[] = [];
    const hung = http.createServer((req) => {
      closed.push(new Promise((resolve) => req.socket.once('close', () => resolve())));
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    try {
      const limiter = createUpstashRateLimiter({ url, token: TOKEN });
      const started = performance.now();
      const result = await limiter.limit('checkout-session', '198.51.100.23');
      const elapsed = performance.now() - started;

      expect(result).toMatchObject({ success: true, limit: 60, remaining: 59 });
      expect(elapsed).toBeGreaterThanOrEqual(950);
      expect(elapsed).toBeLessThan(1_800);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith('rate limiter unavailable; requests are let through until Redis answers', {
        bucket: 'checkout-session',
        error: expect.any(String),
      });
      expect(JSON.stringify(warn.mock.calls)).not.toContain('198.51.100.23');
      // The client gave up on the request: its connection is closed, not left hanging.
      expect(closed).toHaveLength(1);
      await expect(Promise.race([closed[0], new Promise((r) => setTimeout(() => r('open'), 500))])).resolves.toBeUndefined();
    } finally {
      hung.closeAllConnections();
      await new Promise((resolve) => hung.close(resolve));
    }
  });

  it('lets the request through at once when nothing listens', async () => {
    const port = await closedPort();
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});

    const started = performance.now();
    const result = await limiterFor({ url: `http://127.0.0.1:${port}` }).limit('merchant', 'pk_test_a');
    expect(result).toMatchObject({ success: true, limit: 60, remaining: 59 });
    expect(performance.now() - started).toBeLessThan(500);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('lets the request through when the token is wrong (the endpoint answers 401)', async () => {
    const res = await pingWithToken(server.url, 'wrong');
    expect(res.status).toBe(401);

    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const result = await limiterFor({ token: 'wrong' }).limit('create-link', 'pk_test_secretish');
    expect(result).toMatchObject({ success: true, limit: 60, remaining: 59 });
    expect(warn).toHaveBeenCalledTimes(1);
    const fields = warn.mock.calls[0]![1] as { error: string };
    expect(fields.error).toMatch(/Unauthorized/);
    expect(JSON.stringify(warn.mock.calls)).not.toContain('pk_test_secretish');
  });
});
