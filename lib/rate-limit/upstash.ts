import { Redis } from '@upstash/redis';
import { log } from '@/lib/log';
import { LIMITS, WINDOW_MS, windowEnd, type LimitBucket, type LimitResult, type RateLimiter } from './limits';

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

/**
 * The sliding window of lib/rate-limit/memory.ts, in Redis: the count of the current fixed minute
 * plus the previous minute's count weighted by how much of it still lies inside the last 60 s,
 * rounded UP; a refused request is not counted. @upstash/ratelimit's script rounds that weight
 * down, so a burst of 60 crossing a minute boundary let a 61st through; the same arithmetic in
 * both limiters (doubles in Lua and in JavaScript) gives the same answers. Keys are those
 * @upstash/ratelimit used (`<prefix>:<identifier>:<minute index>`), so counts carry over a deploy.
 * Returns { remaining after this request (-1 when refused), limit }.
 */
const SLIDING_WINDOW = `
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local weighted = math.ceil((1 - (now % window) / window) * previous)
if weighted + current >= limit then
  return {-1, limit}
end
local value = redis.call('INCR', KEYS[1])
if value == 1 then
  redis.call('PEXPIRE', KEYS[1], window * 2 + 1000)
end
return {limit - (value + weighted), limit}
`;

/** How often a limiter that stays unreachable says so again, with the count it let through. */
const STILL_DOWN_EVERY_MS = 60_000;

export function createUpstashRateLimiter(opts: UpstashRateLimiterOptions): RateLimiter {
  const timeoutMs = opts.timeoutMs ?? 1000;
  const prefix = opts.prefix ?? 'servicepay:rl';
  const redis = new Redis({
    url: opts.url,
    token: opts.token,
    // A fresh signal for each HTTP call, so a hung call is aborted (its socket closed) at the
    // deadline rather than left open; Node does not let these timers keep the process alive. A
    // function on purpose: when a plain AbortSignal fires, the client does not throw but makes up
    // a 200 reply whose result is the abort reason, which would be read as counts.
    signal: () => AbortSignal.timeout(timeoutMs),
    // The default (5 retries, backoff up to 2.7 s) outlives the deadline on timers that keep the
    // process alive; `false` still retries a refused connection once, at once.
    retry: false,
    enableTelemetry: false,
  });
  // EVALSHA, and EVAL once when Redis answers NOSCRIPT.
  const script = redis.createScript<[number, number]>(SLIDING_WINDOW);
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
    async limit(bucket: LimitBucket, identifier: string): Promise<LimitResult> {
      const limit = LIMITS[bucket];
      if (limit === undefined) throw new Error(`Unknown rate limit bucket: ${bucket}`);
      const now = Date.now();
      const window = Math.floor(now / WINDOW_MS);
      const keys = [`${prefix}:${bucket}:${identifier}:${window}`, `${prefix}:${bucket}:${identifier}:${window - 1}`];
      // The signal bounds each HTTP call; this bounds the whole check, which can take two calls
      // (EVALSHA answered NOSCRIPT, then EVAL).
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        timer.unref();
      });
      try {
        const [remaining] = await Promise.race([script.exec(keys, [String(limit), String(now), String(WINDOW_MS)]), deadline]);
        answered();
        return { success: remaining >= 0, limit, remaining: Math.max(0, remaining), reset: windowEnd(now) };
      } catch (error) {
        unavailable(bucket, error);
        return { success: true, limit, remaining: limit - 1, reset: windowEnd(now) };
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
