import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { log } from '@/lib/log';
import { LIMITS, WINDOW_MS, windowEnd, type LimitBucket, type LimitResult, type RateLimiter } from './limits';

// Limits shared by every instance, kept in Upstash Redis by @upstash/ratelimit's sliding window
// (docs/api.md#rate-limits); memory.ts computes the same for a single instance. Redis slow or down
// must not take the API down with it: past the deadline the request is let through and logged.

export interface UpstashRateLimiterOptions {
  url: string;
  token: string;
  timeoutMs?: number;
  /** Start of every key; each bucket adds `:<bucket>`. */
  prefix?: string;
}

/** How often a limiter that stays unreachable says so again, with the count it let through. */
const STILL_DOWN_EVERY_MS = 60_000;

export function createUpstashRateLimiter(opts: UpstashRateLimiterOptions): RateLimiter {
  const timeoutMs = opts.timeoutMs ?? 1000;
  const prefix = opts.prefix ?? 'servicepay:rl';
  const redis = new Redis({
    url: opts.url,
    token: opts.token,
    // A fresh signal per call aborts a hung one; a function because a plain fired AbortSignal makes
    // the client invent a 200 whose result is the abort reason.
    signal: () => AbortSignal.timeout(timeoutMs),
    // The default (5 retries, backoff up to 2.7 s) outlives the deadline on timers that keep the
    // process alive; `false` still retries a refused connection once, at once.
    retry: false,
    enableTelemetry: false,
  });
  // One limiter per bucket; keys are `<prefix>:<bucket>:<identifier>:<minute index>`. No local
  // cache of refused identifiers: room frees up inside the minute as the previous one fades, and
  // the in-process limiter, which has no such cache, must answer alike.
  const limiters = new Map<LimitBucket, Ratelimit>();
  const limiterOf = (bucket: LimitBucket) => {
    let limiter = limiters.get(bucket);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(LIMITS[bucket], `${WINDOW_MS} ms`),
        prefix: `${prefix}:${bucket}`,
        ephemeralCache: false,
        analytics: false,
        timeout: timeoutMs,
      });
      limiters.set(bucket, limiter);
    }
    return limiter;
  };
  // Redis down is logged when it goes down and when it comes back, not on every request
  // (docs/api.md#rate-limits): one line a minute at most while it stays down.
  const outage = { since: 0, lastSaid: 0, letThrough: 0 };

  function unavailable(bucket: LimitBucket, error: unknown) {
    const now = Date.now();
    outage.letThrough++;
    if (!outage.since) {
      outage.since = outage.lastSaid = now;
      log.warn('rate limiter unavailable; requests are let through until Redis answers', { bucket, error: describeError(error) });
    } else if (now - outage.lastSaid >= STILL_DOWN_EVERY_MS) {
      outage.lastSaid = now;
      log.warn('rate limiter still unavailable', { letThrough: outage.letThrough, downForMs: now - outage.since, error: describeError(error) });
    }
  }

  function answered() {
    if (!outage.since) return;
    log.info('rate limiter available again', { letThrough: outage.letThrough, downForMs: Date.now() - outage.since });
    outage.since = outage.lastSaid = outage.letThrough = 0;
  }

  return {
    async limit(bucket: LimitBucket, identifier: string, weight = 1): Promise<LimitResult> {
      const limit = LIMITS[bucket];
      if (limit === undefined) throw new Error(`Unknown rate limit bucket: ${bucket}`);
      const now = Date.now();
      try {
        // The library's timeout answers { success: true, reason: 'timeout' } at the deadline.
        const result = await limiterOf(bucket).limit(identifier, weight === 1 ? undefined : { rate: weight });
        if (result.reason === 'timeout') throw new Error(`no answer within ${timeoutMs} ms`);
        answered();
        return { success: result.success, limit, remaining: result.remaining, reset: result.reset };
      } catch (error) {
        unavailable(bucket, error);
        return { success: true, limit, remaining: limit - weight, reset: windowEnd(now) };
      }
    },
  };
}

/** The error in one line, without the command @upstash/redis appends (its key holds a client IP). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.split(', command was:')[0];
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}: ${message}${cause}`;
}
