import { env } from '@/lib/env';
import type { LimitResult, RateLimiter } from './limits';
import { createMemoryRateLimiter } from './memory';
import { createUpstashRateLimiter } from './upstash';

// The rate limiter of docs/api.md#rate-limits behind one interface: Upstash Redis when it is configured
// (shared by every instance), otherwise in-process (one instance).

export { LIMITS, type LimitBucket, type LimitResult, type RateLimiter } from './limits';
export { createMemoryRateLimiter, type MemoryRateLimiter } from './memory';
export { createUpstashRateLimiter, type UpstashRateLimiterOptions } from './upstash';

let limiter: RateLimiter | undefined;

/** The limiter of this process, chosen from the settings on first use. */
export function getRateLimiter(): RateLimiter {
  if (!limiter) {
    const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = env();
    limiter = url && token ? createUpstashRateLimiter({ url, token }) : createMemoryRateLimiter();
  }
  return limiter;
}

/** The headers of docs/api.md#rate-limits, in whole seconds rounded up. */
export function rateLimitHeaders(result: LimitResult, now: number = Date.now()): Record<string, string> {
  const seconds = Math.max(0, Math.ceil((result.reset - now) / 1000));
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(Math.max(0, result.remaining)),
    // A refused client is never told the window is already free.
    'RateLimit-Reset': String(result.success ? seconds : Math.max(1, seconds)),
  };
  if (!result.success) headers['Retry-After'] = String(Math.max(1, seconds));
  return headers;
}
