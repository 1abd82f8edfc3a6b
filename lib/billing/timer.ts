import { getDb } from '@/db/client';
import { errorFields, log } from '@/lib/log';
import { getPaymentProcessor } from '@/lib/payments';
import { runRenewalSweep } from './sweep';

// DECISIONS 13: without Inngest, the renewal sweep runs in this process on a timer. Only the
// server's start-up (lib/bootstrap.ts) starts it; tests, builds and scripts never do.

export const RENEWAL_SWEEP_INTERVAL_MS = 60_000;

// Kept on globalThis so a dev-server reload does not start a second timer.
const holder = globalThis as typeof globalThis & { __servicepayRenewalTimer?: NodeJS.Timeout };

/** Starts the in-process renewal sweep once per process; a sweep never overlaps the previous one. */
export function startRenewalTimer(intervalMs: number = RENEWAL_SWEEP_INTERVAL_MS): void {
  if (holder.__servicepayRenewalTimer) return;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const summary = await runRenewalSweep(await getDb(), getPaymentProcessor());
      if (summary.due || summary.idempotencyKeysDeleted) log.info('renewal sweep', { ...summary, transactionIds: undefined });
    } catch (error) {
      log.error('renewal sweep failed', errorFields(error));
    } finally {
      running = false;
    }
  };
  holder.__servicepayRenewalTimer = setInterval(() => void tick(), intervalMs);
  // The timer alone does not keep the process alive.
  holder.__servicepayRenewalTimer.unref();
}
