import { after } from 'next/server';
import type { Db } from '@/db/client';
import { touchApiKeys } from '@/db/queries/api-keys';
import { errorFields, log } from '@/lib/log';

// An API key's last use, to the minute: noted on the request path, written seconds later in batches.
// A process killed outright loses a few seconds of them (shown, never decided on).
const RECORD_EVERY_MS = 60_000;
const FLUSH_AFTER_MS = 5_000;
const FLUSH_BATCH = 500;

/** So a key is noted at most once a minute. */
const lastNoted = new Map<string, number>();
/** Per database (tests use several). */
const pending = new Map<Db, Set<string>>();
let flushTimer: NodeJS.Timeout | undefined;
let settleWritten: (() => void) | undefined;

export function recordUse(db: Db, apiKey: string): void {
  const now = Date.now();
  if (now - (lastNoted.get(apiKey) ?? 0) < RECORD_EVERY_MS) return;
  if (lastNoted.size >= 100_000) lastNoted.clear();
  lastNoted.set(apiKey, now);
  const keys = pending.get(db) ?? new Set();
  pending.set(db, keys.add(apiKey));
  if (!flushTimer) {
    flushTimer = setTimeout(() => void flushKeyUse(), FLUSH_AFTER_MS);
    flushTimer.unref();
    waitBeforeExit(new Promise<void>((resolve) => (settleWritten = resolve)));
  }
}

let flushesOnSignal = false;

/** Inside a `next start` request the final write is tied to `after()`. */
function waitBeforeExit(promise: Promise<void>): void {
  try {
    after(promise);
  } catch {
    return;
  }
  if (flushesOnSignal) return;
  flushesOnSignal = true;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void flushKeyUse());
}

/** The timer's job; tests call it too. */
export async function flushKeyUse(): Promise<void> {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  const settle = settleWritten;
  settleWritten = undefined;
  const batches = [...pending];
  pending.clear();
  for (const [db, keys] of batches) {
    const all = [...keys];
    for (let i = 0; i < all.length; i += FLUSH_BATCH) {
      await touchApiKeys(db, all.slice(i, i + FLUSH_BATCH)).catch((error) => log.warn('could not record API key use', errorFields(error)));
    }
  }
  settle?.();
}
