// Gives memory back after a burst: V8 keeps pages its collections emptied, so after a quiet spell,
// once the RSS has grown well past its floor, one full collection returns them (docs/operations.md#memory).

import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { errorFields, log } from '@/lib/log';

export const MEMORY_RELEASE = {
  checkEveryMs: 5_000,
  /** Quiet: over the last this long, */
  quietForMs: 20_000,
  /** at most this many HTTP requests started. */
  quietRequests: 20,
  /** RSS grown over the floor by at least this much */
  grownByBytes: 32 * 1024 * 1024,
  /** and by this share of it. */
  grownByShare: 0.1,
} as const;

export type MemoryReleaseSettings = { [K in keyof typeof MEMORY_RELEASE]: number };

export interface MemoryProbe {
  rss(): number;
  heapTotal(): number;
  requestsSinceLastCall(): number;
  collect(): Promise<void>;
}

export interface MemoryReleaser {
  check(): Promise<'busy' | 'quiet' | 'released'>;
  /** At start-up, then where the last release left it. */
  readonly floor: number;
}

const MB = 2 ** 20;

/** The decision apart from the timer and V8, for tests. */
export function memoryReleaser(probe: MemoryProbe, settings: MemoryReleaseSettings = MEMORY_RELEASE): MemoryReleaser {
  const window = Math.ceil(settings.quietForMs / settings.checkEveryMs);
  const recent: number[] = [];
  let floor = probe.rss();
  let releasing = false;
  return {
    get floor() {
      return floor;
    },
    async check() {
      recent.push(probe.requestsSinceLastCall());
      if (recent.length > window) recent.shift();
      // Background jobs and V8's idle collections go on in a quiet server: quiet is about traffic.
      const quiet = recent.length === window && recent.reduce((sum, n) => sum + n, 0) <= settings.quietRequests;
      if (releasing || !quiet) return 'busy';
      const rss = probe.rss();
      if (rss < floor + Math.max(settings.grownByBytes, floor * settings.grownByShare)) return 'quiet';
      releasing = true;
      try {
        const started = performance.now();
        const heapBefore = probe.heapTotal();
        await probe.collect();
        let collections = 1;
        // After a big heap drop the RSS stays until a second collection.
        if (heapBefore - probe.heapTotal() >= settings.grownByBytes) {
          await probe.collect();
          collections++;
        }
        const after = probe.rss();
        log.info('memory given back after a quiet spell', {
          rssBeforeMB: Math.round(rss / MB),
          rssAfterMB: Math.round(after / MB),
          floorMB: Math.round(floor / MB),
          collections,
          ms: Math.round(performance.now() - started),
        });
        // The next release waits for as much growth again, so a heap that really grew is not collected over and over.
        floor = after;
        return 'released';
      } finally {
        releasing = false;
      }
    },
  };
}

/** Closes the session on the next turn: closing inside V8's task deadlocks. */
async function inspectorCollect(): Promise<void> {
  const inspector = process.getBuiltinModule('node:inspector');
  const session = new inspector.Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (error) => (error ? reject(error) : resolve())));
  } finally {
    await new Promise((resolve) => setImmediate(resolve));
    session.disconnect();
  }
}

function processProbe(): MemoryProbe {
  let requests = 0;
  diagnosticsChannel.subscribe('http.server.request.start', () => {
    requests++;
  });
  return {
    rss: () => process.memoryUsage.rss(),
    heapTotal: () => process.memoryUsage().heapTotal,
    requestsSinceLastCall() {
      const count = requests;
      requests = 0;
      return count;
    },
    collect: inspectorCollect,
  };
}

let started = false;

/** Starts the quiet-time release in this server process (instrumentation.ts). */
export function startMemoryRelease(): void {
  if (started) return;
  started = true;
  const releaser = memoryReleaser(processProbe());
  const timer = setInterval(() => {
    releaser.check().catch((error: unknown) => {
      // A Node without the inspector: said once, and the server goes on without it.
      clearInterval(timer);
      log.warn('memory is not given back after quiet spells: the collection failed', errorFields(error));
    });
  }, MEMORY_RELEASE.checkEveryMs).unref();
}
