// Performance (docs/performance.md): memory given back after a burst. V8 keeps the pages its
// collections empty, outside the heap it reports, so a server keeps what a burst made it take
// (docs/operations.md#memory; figures in docs/benchmarks.md). After a quiet spell, once the RSS has
// grown well past its floor, one full collection (the inspector's `HeapProfiler.collectGarbage`)
// gives them back: a pause and a slower burst after it, paid once, never while requests come.

import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { errorFields, log } from '@/lib/log';

export const MEMORY_RELEASE = {
  checkEveryMs: 5_000,
  /** Quiet: over the last this long... */
  quietForMs: 20_000,
  /** ...at most this many HTTP requests started (a load balancer's health checks, the odd request). */
  quietRequests: 20,
  /** RSS grown by at least this much over the floor (at start-up, then where the last release left it)... */
  grownByBytes: 32 * 1024 * 1024,
  /** ...and by at least this share of it. */
  grownByShare: 0.1,
} as const;

export type MemoryReleaseSettings = { [K in keyof typeof MEMORY_RELEASE]: number };

export interface MemoryProbe {
  rss(): number;
  heapTotal(): number;
  /** HTTP requests started since the previous call (since start-up at the first). */
  requestsSinceLastCall(): number;
  /** One collection of all V8 can collect, pooled pages given back. */
  collect(): Promise<void>;
}

export interface MemoryReleaser {
  /** Called every `checkEveryMs`: releases when the process has been quiet long enough and has grown. */
  check(): Promise<'busy' | 'quiet' | 'released'>;
  /** The RSS a release must exceed by the growth settings, in bytes: at start-up, then where the last release left it. */
  readonly floor: number;
}

const MB = 2 ** 20;

/** The decision, apart from the timer and V8: testable with a fake probe. */
export function memoryReleaser(probe: MemoryProbe, settings: MemoryReleaseSettings = MEMORY_RELEASE): MemoryReleaser {
  const window = Math.ceil(settings.quietForMs / settings.checkEveryMs);
  /** Requests started in each of the last `window` check intervals. */
  const recent: number[] = [];
  // Taken when the releaser is made, at start-up: what the process holds before any request.
  let floor = probe.rss();
  let releasing = false;
  return {
    get floor() {
      return floor;
    },
    async check() {
      recent.push(probe.requestsSinceLastCall());
      if (recent.length > window) recent.shift();
      // Quiet is about traffic: background jobs (sweepers, the settler) and V8's own idle
      // collections go on in a quiet server.
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
        // A collection that emptied much of the heap leaves the RSS where it was until a second one
        // (docs/benchmarks.md, 2026-11-26).
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
        // Where this release left it: the next one waits for as much growth again, so a heap
        // that really grew is not collected over and over.
        floor = after;
        return 'released';
      } finally {
        releasing = false;
      }
    },
  };
}

/** The inspector's full collection; the session closes on the next turn (closing inside V8's task deadlocks). */
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

/** This process: every HTTP request Node's server starts is counted on its diagnostics channel. */
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

/** Starts the quiet-time release in this server process (instrumentation.ts; docs/operations.md#memory). */
export function startMemoryRelease(): void {
  if (started) return;
  started = true;
  const releaser = memoryReleaser(processProbe());
  const timer = setInterval(() => {
    releaser.check().catch((error: unknown) => {
      // A Node built without the inspector, or a V8 that refuses: said once, and the server goes on without it.
      clearInterval(timer);
      log.warn('memory is not given back after quiet spells: the collection failed', errorFields(error));
    });
  }, MEMORY_RELEASE.checkEveryMs).unref();
}
