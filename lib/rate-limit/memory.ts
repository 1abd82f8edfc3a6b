import { LIMITS, WINDOW_MS, windowEnd, type LimitBucket, type LimitResult, type RateLimiter } from './limits';

// The in-process limiter for a single instance, with @upstash/ratelimit's sliding-window arithmetic
// so both answer alike (docs/api.md#rate-limits).

interface Counts {
  window: number;
  current: number;
  previous: number;
}

export interface MemoryRateLimiter extends RateLimiter {
  /** How many bucket and identifier pairs are held; lets tests see stale ones go. */
  size(): number;
}

export function createMemoryRateLimiter(opts: { now?: () => number } = {}): MemoryRateLimiter {
  // Read at each call, so a test that pins the clock pins this limiter too.
  const clock = opts.now ?? (() => Date.now());
  const counts = new Map<string, Counts>();
  let sweptWindow = -Infinity;

  // Counts older than the previous minute never matter again. Dropping them once per minute
  // bounds the map by the identifiers seen in the last two minutes.
  function sweep(window: number) {
    if (window === sweptWindow) return;
    sweptWindow = window;
    for (const [key, entry] of counts) {
      if (entry.window < window - 1) counts.delete(key);
    }
  }

  return {
    size: () => counts.size,
    async limit(bucket: LimitBucket, identifier: string, weight = 1): Promise<LimitResult> {
      const now = clock();
      const window = Math.floor(now / WINDOW_MS);
      sweep(window);

      const key = `${bucket}:${identifier}`;
      let entry = counts.get(key);
      if (!entry) {
        entry = { window, current: 0, previous: 0 };
        counts.set(key, entry);
      } else if (entry.window !== window) {
        entry.previous = entry.window === window - 1 ? entry.current : 0;
        entry.current = 0;
        entry.window = window;
      }

      const limit = LIMITS[bucket];
      const reset = windowEnd(now);
      const elapsed = (now % WINDOW_MS) / WINDOW_MS;
      const weightedPrevious = Math.floor((1 - elapsed) * entry.previous);
      if (weightedPrevious + entry.current >= limit) {
        return { success: false, limit, remaining: 0, reset };
      }
      entry.current += weight;
      const remaining = limit - (weightedPrevious + entry.current);
      return { success: remaining >= 0, limit, remaining: Math.max(0, remaining), reset };
    },
  };
}
