import { randomUUID } from 'node:crypto';
import { Redis } from '@upstash/redis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startUpstashRestServer } from '@/test/upstash-rest-server';
import { LIMITS, rateLimitHeaders } from '.';

describe('rateLimitHeaders', () => {
  const now = 1_700_000_000_000;

  it('gives limit, remaining and whole seconds to reset, rounded up, on success', () => {
    expect(rateLimitHeaders({ success: true, limit: 120, remaining: 7, reset: now + 12_001 }, now)).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '7',
      'RateLimit-Reset': '13',
    });
  });

  it('never goes negative', () => {
    expect(rateLimitHeaders({ success: true, limit: 60, remaining: -3, reset: now - 5_000 }, now)).toEqual({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '0',
    });
  });

  it('adds Retry-After, at least one second, only when refused', () => {
    expect(rateLimitHeaders({ success: false, limit: 60, remaining: 0, reset: now + 200 }, now)).toEqual({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '1',
      'Retry-After': '1',
    });
    expect(rateLimitHeaders({ success: false, limit: 60, remaining: 0, reset: now - 1 }, now)['Retry-After']).toBe('1');
    expect(rateLimitHeaders({ success: false, limit: 60, remaining: 0, reset: now + 41_000 }, now)['Retry-After']).toBe('41');
  });
});

describe('LIMITS', () => {
  it('are those of docs/api.md#rate-limits, the listener’s own bucket, and the portal sign-in limits', () => {
    expect(LIMITS).toEqual({ 'create-link': 60, 'plan-status': 120, merchant: 60, usage: 10_000, 'webhook-listen': 120, 'checkout-session': 60, 'sign-in-email': 5, 'sign-in-ip': 30, 'sign-up-ip': 5, 'account-email': 5, reauth: 5, 'csp-report': 30, 'manage-method': 3, 'manage-method-ip': 10 });
  });
});

describe('getRateLimiter', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  // A fresh module graph per case, so the settings (parsed once per process) are read again.
  async function load() {
    vi.resetModules();
    return import('.');
  }

  it('is in-process without Upstash settings, and one per process', async () => {
    vi.stubEnv('UPSTASH_REDIS_REST_URL', '');
    vi.stubEnv('UPSTASH_REDIS_REST_TOKEN', '');
    const { getRateLimiter } = await load();
    const limiter = getRateLimiter();
    expect(getRateLimiter()).toBe(limiter);
    const id = `pk_test_${randomUUID()}`;
    for (let i = 0; i < 60; i++) await limiter.limit('merchant', id);
    expect((await limiter.limit('merchant', id)).success).toBe(false);
  });

  it('keeps the counts in Redis when Upstash is configured', async () => {
    const token = `token-${randomUUID()}`;
    const server = await startUpstashRestServer({ token });
    const redis = new Redis({ url: server.url, token, enableTelemetry: false });
    const id = `pk_test_${randomUUID()}`;
    try {
      vi.stubEnv('UPSTASH_REDIS_REST_URL', server.url);
      vi.stubEnv('UPSTASH_REDIS_REST_TOKEN', token);
      const { getRateLimiter } = await load();
      const limiter = getRateLimiter();
      expect(await limiter.limit('merchant', id)).toMatchObject({ success: true, remaining: 59 });
      expect(await redis.keys(`servicepay:rl:merchant:${id}:*`)).toHaveLength(1);
    } finally {
      const keys = await redis.keys(`servicepay:rl:merchant:${id}:*`);
      if (keys.length) await redis.del(...keys);
      await server.close();
    }
  });
});
