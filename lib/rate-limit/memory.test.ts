import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, rateLimitHeaders, type LimitBucket } from '.';

const MINUTE = 60_000;
// The start of a fixed minute, so offsets in the tests read as seconds into it.
const T0 = 28_000_000 * MINUTE;

function clock(start = T0) {
  const state = { now: start };
  return { state, now: () => state.now };
}

async function spend(limiter: ReturnType<typeof createMemoryRateLimiter>, bucket: LimitBucket, id: string, n: number) {
  const results = [];
  for (let i = 0; i < n; i++) results.push(await limiter.limit(bucket, id));
  return results;
}

describe('memory rate limiter', () => {
  it.each(['create-link', 'merchant', 'checkout-session'] as const)('refuses the 61st request in a minute on %s', async (bucket) => {
    const { state, now } = clock(T0 + 10_000);
    const limiter = createMemoryRateLimiter({ now });
    const served = await spend(limiter, bucket, 'pk_test_a', 60);
    expect(served.every((r) => r.success)).toBe(true);
    expect(served.at(-1)).toMatchObject({ limit: 60, remaining: 0 });

    state.now = T0 + 20_000;
    const refused = await limiter.limit(bucket, 'pk_test_a');
    expect(refused).toEqual({ success: false, limit: 60, remaining: 0, reset: T0 + MINUTE });
    expect(rateLimitHeaders(refused, state.now)).toEqual({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '40',
      'Retry-After': '40',
    });
  });

  it('refuses the 121st request in a minute on plan-status', async () => {
    const limiter = createMemoryRateLimiter(clock());
    const served = await spend(limiter, 'plan-status', 'pk_test_a', 120);
    expect(served.every((r) => r.success && r.limit === 120)).toBe(true);
    expect((await limiter.limit('plan-status', 'pk_test_a')).success).toBe(false);
  });

  it('counts each identifier and each bucket on its own', async () => {
    const limiter = createMemoryRateLimiter(clock());
    await spend(limiter, 'create-link', 'pk_test_a', 60);
    expect((await limiter.limit('create-link', 'pk_test_a')).success).toBe(false);
    expect(await limiter.limit('create-link', 'pk_test_b')).toMatchObject({ success: true, remaining: 59 });
    expect(await limiter.limit('merchant', 'pk_test_a')).toMatchObject({ success: true, remaining: 59 });
    expect(await limiter.limit('plan-status', 'pk_test_a')).toMatchObject({ success: true, remaining: 119 });
  });

  it('counts the request just served in Remaining', async () => {
    const limiter = createMemoryRateLimiter(clock(T0 + 15_500));
    const first = await limiter.limit('create-link', 'pk_test_a');
    expect(first).toEqual({ success: true, limit: 60, remaining: 59, reset: T0 + MINUTE });
    expect(rateLimitHeaders(first, T0 + 15_500)).toEqual({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '59',
      'RateLimit-Reset': '45',
    });
    expect((await limiter.limit('create-link', 'pk_test_a')).remaining).toBe(58);
  });

  it('slides: the previous minute weighs by how much of it is still inside the last 60 s', async () => {
    const { state, now } = clock();
    const limiter = createMemoryRateLimiter({ now });
    await spend(limiter, 'create-link', 'pk_test_a', 60);

    // Still the same minute: nothing freed.
    state.now = T0 + 59_999;
    expect((await limiter.limit('create-link', 'pk_test_a')).success).toBe(false);

    // Half-way through the next minute, half of the previous one still counts: 30 fit.
    state.now = T0 + MINUTE + 30_000;
    const served = await spend(limiter, 'create-link', 'pk_test_a', 30);
    expect(served.every((r) => r.success)).toBe(true);
    expect(served[0]!.remaining).toBe(29);
    expect(await limiter.limit('create-link', 'pk_test_a')).toMatchObject({ success: false, reset: T0 + 2 * MINUTE });

    // Three quarters through: 15 of the old 60 weigh, plus the 30 of this minute.
    state.now = T0 + MINUTE + 45_000;
    expect((await spend(limiter, 'create-link', 'pk_test_a', 15)).every((r) => r.success)).toBe(true);
    expect((await limiter.limit('create-link', 'pk_test_a')).success).toBe(false);

    // Two quiet minutes later the slate is clean.
    state.now = T0 + 3 * MINUTE + 1;
    expect(await limiter.limit('create-link', 'pk_test_a')).toMatchObject({ success: true, remaining: 59 });
  });

  it('admits one over the limit in a burst that straddles a minute boundary (the weighted count rounds down, as Upstash’s)', async () => {
    const { state, now } = clock(T0 + MINUTE - 300);
    const limiter = createMemoryRateLimiter({ now });
    // 30 requests in the last 300 ms of one minute, 30 in the first 300 ms of the next.
    for (let i = 0; i < 30; i++, state.now += 10) expect((await limiter.limit('checkout-session', '198.51.100.7')).success).toBe(true);
    for (let i = 0; i < 30; i++, state.now += 10) expect((await limiter.limit('checkout-session', '198.51.100.7')).success).toBe(true);
    // 29.85 of the previous minute's 30 still weigh, counted as 29: with this minute's 30 a 61st fits, a 62nd does not.
    expect(state.now).toBe(T0 + MINUTE + 300);
    expect(await limiter.limit('checkout-session', '198.51.100.7')).toMatchObject({ success: true, remaining: 0 });
    expect(await limiter.limit('checkout-session', '198.51.100.7')).toMatchObject({ success: false, remaining: 0 });
  });

  it('drops identifiers not seen for two minutes', async () => {
    const { state, now } = clock();
    const limiter = createMemoryRateLimiter({ now });
    for (let i = 0; i < 500; i++) await limiter.limit('checkout-session', `203.0.113.${i}`);
    expect(limiter.size()).toBe(500);

    state.now = T0 + MINUTE + 1;
    await limiter.limit('checkout-session', '198.51.100.1');
    expect(limiter.size()).toBe(501);

    state.now = T0 + 2 * MINUTE + 1;
    await limiter.limit('checkout-session', '198.51.100.1');
    expect(limiter.size()).toBe(1);
  });
});
