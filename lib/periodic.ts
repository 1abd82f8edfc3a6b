import { errorFields, log } from '@/lib/log';

// Periodic work in this process (docs/operations.md#scheduled-jobs), for the deployments without
// Inngest. Only the server's start-up starts it; tests, builds and scripts never do.

// Kept on globalThis: a dev-server reload re-evaluates modules, and must not start a second timer.
const timers = globalThis as typeof globalThis & { __servicepayPeriodic?: Map<string, NodeJS.Timeout> };

/** Runs `task` every `everyMs`, once per process and name, never overlapping; a failure is logged. */
export function startPeriodic(name: string, everyMs: number, task: () => Promise<void>): void {
  const running = (timers.__servicepayPeriodic ??= new Map());
  if (running.has(name)) return;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      await task();
    } catch (error) {
      log.error(`${name} failed`, errorFields(error));
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  running.set(name, timer);
}

/** Stops every periodic task of this process (tests of the helper, shutdown). */
export function stopPeriodic(): void {
  for (const timer of timers.__servicepayPeriodic?.values() ?? []) clearInterval(timer);
  timers.__servicepayPeriodic?.clear();
}
