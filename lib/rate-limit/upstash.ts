import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { log } from '@/lib/log';
import { LIMITS, windowEnd, type LimitBucket, type LimitResult, type RateLimiter } from './limits';

// Limits shared by every instance, kept in Upstash Redis (docs/api.md#rate-limits). Redis slow or down must
// not take the API down with it: past the deadline the request is let through and logged.

export interface UpstashRateLimiterOptions {
  url: string;
  token: string;
  /** How long to wait for Redis before letting the request through. */
  timeoutMs?: number;
  /** Start of every key; each bucket adds `:<bucket>`. */
  prefix?: string;
}

const BUCKETS = Object.keys(LIMITS) as LimitBucket[];

export function createUpstashRateLimiter(opts: UpstashRateLimiterOptions): RateLimiter {
  const timeoutMs = opts.timeoutMs ?? 1000;
  const prefix = opts.prefix ?? 'servicepay:rl';
  const redis = new Redis({
    url: opts.url,
    token: opts.token,
    // A fresh signal for each HTTP call, so a hung call is aborted (its socket closed) at the
    // deadline rather than left open; Node does not let these timers keep the process alive. A
    // function on purpose: when a plain AbortSignal fires, the client does not throw but makes up
    // a 200 reply whose result is the abort reason, which Ratelimit would read as counts.
    signal: () => AbortSignal.timeout(timeoutMs),
    // The default (5 retries, backoff up to 2.7 s) outlives the deadline on timers that keep the
    // process alive; `false` still retries a refused connection once, at once.
    retry: false,
    enableTelemetry: false,
  });
  const limiters = new Map(
    BUCKETS.map((bucket) => [
      bucket,
      new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(LIMITS[bucket], '60 s'),
        prefix: `${prefix}:${bucket}`,
        analytics: false,
        enableTelemetry: false,
        // Ratelimit's own timeout lets the request through silently (and reports limit 0); ours
        // below logs the fault and reports the real limit.
        timeout: 0,
        // The ephemeral cache refuses an identifier locally until the end of the fixed minute in
        // which Redis first refused it. The sliding window frees room before that as the previous
        // minute fades, so this instance would refuse what Redis and the other instances allow;
        // and its entries go only when the same identifier comes back, so with one entry per
        // refused client IP it grows for the life of the process. Refused requests pay a round trip.
        ephemeralCache: false,
      }),
    ]),
  );

  return {
    async limit(bucket: LimitBucket, identifier: string): Promise<LimitResult> {
      const limiter = limiters.get(bucket);
      if (!limiter) throw new Error(`Unknown rate limit bucket: ${bucket}`);
      // The signal bounds each HTTP call; this bounds the whole check, which can take two calls
      // (EVALSHA answered NOSCRIPT, then EVAL).
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        timer.unref();
      });
      try {
        const result = await Promise.race([limiter.limit(identifier), deadline]);
        return { success: result.success, limit: result.limit, remaining: result.remaining, reset: result.reset };
      } catch (error) {
        log.warn('rate limiter unavailable; request let through', { bucket, error: describeError(error) });
        const limit = LIMITS[bucket];
        return { success: true, limit, remaining: limit - 1, reset: windowEnd(Date.now()) };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * The error in one line. @upstash/redis appends "command was: [...]" to HTTP errors, and that
 * command holds the key, which holds the identifier (a client IP for checkout-session): cut it.
 */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.split(', command was:')[0];
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}: ${message}${cause}`;
}
