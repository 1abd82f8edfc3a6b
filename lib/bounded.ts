import { env } from '@/lib/env';

// A burst's processor calls bounded in flight, overall and per merchant, taken in batches so memory
// stays flat; a key refused for rate pauses with a growing backoff while others go on.

export interface BoundedLimits {
  overall: number;
  perKey: number;
}

/** This instance's burst limits (SWEEP_CONCURRENCY, SWEEP_MERCHANT_CONCURRENCY). */
export function sweepLimits(settings = env()): BoundedLimits {
  return { overall: settings.SWEEP_CONCURRENCY, perKey: settings.SWEEP_MERCHANT_CONCURRENCY };
}

/** An item refused for rate: put it back, pause its key. */
export interface RateLimitedItem {
  retryAfterMs: number | null;
}

export interface BoundedWork<T> {
  /** Up to `max` more items, none of a key in `held`; [] when none are left. */
  next(max: number, held: ReadonlySet<string>): Promise<T[]>;
  keyOf(item: T): string;
  run(item: T): Promise<void | RateLimitedItem>;
  /** Items of given-up keys: the next run takes them. */
  dropped?(items: T[]): Promise<void>;
}

export interface BoundedOptions extends BoundedLimits {
  /** Doubles with each refusal in a row, up to `maxBackoffMs`. */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  giveUpAfterMs?: number;
}

export interface BoundedSummary {
  rateLimited: number;
  dropped: number;
}

interface KeyState<T> {
  queued: T[];
  inFlight: number;
  pausedUntil: number;
  /** Refusals in a row, and when the first came. */
  strikes: number;
  limitedSince: number;
  abandoned: boolean;
}

/** Runs every item `work.next` hands out, within the limits. */
export async function runBounded<T>(work: BoundedWork<T>, options: BoundedOptions): Promise<BoundedSummary> {
  const overall = Math.max(1, options.overall);
  const perKey = Math.max(1, Math.min(options.perKey, overall));
  const firstBackoffMs = options.firstBackoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const giveUpAfterMs = options.giveUpAfterMs ?? 10 * 60_000;
  const keys = new Map<string, KeyState<T>>();
  const summary: BoundedSummary = { rateLimited: 0, dropped: 0 };
  let queued = 0;
  let inFlight = 0;
  // Keys held when the source last answered []: it is asked again only once one is released.
  let drainedWith: Set<string> | null = null;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };

  const stateOf = (key: string) => {
    let state = keys.get(key);
    if (!state) keys.set(key, (state = { queued: [], inFlight: 0, pausedUntil: 0, strikes: 0, limitedSince: 0, abandoned: false }));
    return state;
  };

  /** Paused, given up, or already holding a batch. */
  const heldKeys = (at: number) => {
    const held = new Set<string>();
    for (const [key, state] of keys) {
      if (state.abandoned || state.pausedUntil > at || state.queued.length + state.inFlight >= 2 * perKey) held.add(key);
    }
    return held;
  };

  const start = (state: KeyState<T>, item: T) => {
    state.inFlight++;
    inFlight++;
    void work
      .run(item)
      .then((result) => {
        const at = Date.now();
        if (result && 'retryAfterMs' in result) {
          // Back first in its key's line; the key waits longer with each refusal in a row.
          state.queued.unshift(item);
          queued++;
          if (!state.strikes) state.limitedSince = at;
          const backoff = Math.min(maxBackoffMs, firstBackoffMs * 2 ** state.strikes);
          state.strikes++;
          state.pausedUntil = Math.max(state.pausedUntil, at + Math.max(backoff, result.retryAfterMs ?? 0));
          summary.rateLimited++;
        } else if (state.pausedUntil <= at) {
          state.strikes = 0;
        }
      })
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => {
        state.inFlight--;
        inFlight--;
        notify();
      });
  };

  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  /** Wakes the loop when the first paused key comes back. */
  const wakeAt = (at: number) => {
    if (at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timerAt = Infinity;
      notify();
    }, Math.max(0, at - Date.now()));
  };

  try {
    while (!failure) {
      let at = Date.now();
      for (const [key, state] of keys) {
        if (!state.abandoned && state.strikes && at - state.limitedSince >= giveUpAfterMs) state.abandoned = true;
        if (state.abandoned && state.queued.length) {
          const items = state.queued.splice(0);
          queued -= items.length;
          summary.dropped += items.length;
          await work.dropped?.(items);
        }
        if (!state.queued.length && !state.inFlight && !state.strikes && !state.abandoned) keys.delete(key);
      }
      // Take more while fewer than `overall` could run now, in batches of a few times the limit.
      let held = heldKeys(at);
      const drained = () => drainedWith !== null && [...drainedWith].every((k) => held.has(k));
      let ready = 0;
      for (const state of keys.values()) {
        if (!state.abandoned && state.pausedUntil <= at) ready += Math.min(state.queued.length, Math.max(0, perKey - state.inFlight));
      }
      if (inFlight + ready < overall && queued < 4 * overall && !drained()) {
        const items = await work.next(2 * overall - inFlight - ready, held);
        drainedWith = items.length ? null : held;
        for (const item of items) {
          stateOf(work.keyOf(item)).queued.push(item);
          queued++;
        }
      }
      // Keys in turn, so no merchant waits behind another's line.
      at = Date.now();
      for (let started = true; started && inFlight < overall; ) {
        started = false;
        for (const state of keys.values()) {
          if (inFlight >= overall) break;
          if (!state.queued.length || state.pausedUntil > at || state.inFlight >= perKey || state.abandoned) continue;
          queued--;
          start(state, state.queued.shift()!);
          started = true;
        }
      }
      held = heldKeys(at);
      if (!inFlight && !queued && drained() && [...drainedWith!].every((k) => keys.get(k)?.abandoned ?? true)) break;
      if (!inFlight && !queued && !drained()) continue;
      const paused = [...keys.values()].filter((s) => !s.abandoned && s.pausedUntil > at).map((s) => s.pausedUntil);
      if (paused.length) wakeAt(Math.min(...paused));
      if (!inFlight && !paused.length) continue;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    while (inFlight) await new Promise<void>((resolve) => (wake = resolve));
  } finally {
    clearTimeout(timer);
  }
  if (failure) throw failure;
  return summary;
}
