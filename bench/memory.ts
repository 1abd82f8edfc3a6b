// npm run bench:memory: what a fuzz attack leaves in a production server's memory
// (docs/operations.md#memory). One `next start` on a scratch PostgreSQL database, idle, then the
// resilience suite's fuzz run (test/resilience/fuzz.ts) against it, then idle again. The server's
// RSS and V8 heap are read before, right after and `--idle-seconds` after the attack, each time
// as they are and after a full collection, through the inspector of the server process (started
// with --inspect on a loopback port; nothing else is sent to it). Prints one JSON document.
//
//   npx tsx bench/memory.ts [--requests 10000] [--idle-seconds 60] [--seed N] [--rounds 1]
//                           [--v8-flags '--memory-reducer-favors-memory']
// --v8-flags are set in the server at its start (after lib/server-v8.ts's), to compare settings.
// First: the settings the test helpers read when they load (the operator token among them).
import '@/test/setup-env';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { startReceiver } from '@/test/webhook-receiver';
import { createTestCertificates } from '@/test/tls';
import { fuzz } from '@/test/resilience/fuzz';
import { freePort, scratchDatabase, startApp } from '@/test/resilience/harness';
import { ensureBuild, wholeNumbers } from './setup';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    'idle-seconds': { type: 'string', default: '60' },
    seed: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'v8-flags': { type: 'string', default: '' },
  },
});
const counts = wholeNumbers(args, ['requests', 'idle-seconds', 'rounds']);

const MB = 1024 * 1024;

/** A client of one process's inspector: evaluates expressions and forces collections there. */
async function inspector(port: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.error ? Promise.reject(new Error(JSON.stringify(message.error))) : message.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      waiting.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async memory() {
      const expression = `JSON.stringify({ ...process.memoryUsage(), spaces: process.getBuiltinModule('v8').getHeapSpaceStatistics() })`;
      const { result } = (await call('Runtime.evaluate', { expression })) as { result: { value: string } };
      return JSON.parse(result.value) as NodeJS.MemoryUsage & { spaces: { space_name: string; space_size: number; space_used_size: number }[] };
    },
    collect: () => call('HeapProfiler.collectGarbage'),
    setFlags: (flags: string) => call('Runtime.evaluate', { expression: `process.getBuiltinModule('v8').setFlagsFromString(${JSON.stringify(flags)})` }),
    close: () => socket.close(),
  };
}

type Inspector = Awaited<ReturnType<typeof inspector>>;

/** RSS from /proc (what the machine gives the process) and the heap as V8 reports it, in MB. */
async function sample(pid: number, client: Inspector) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
  const m = await client.memory();
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    rssMB: round(rss),
    heapCommittedMB: round(m.heapTotal / MB),
    heapUsedMB: round(m.heapUsed / MB),
    externalMB: round(m.external / MB),
    arrayBuffersMB: round(m.arrayBuffers / MB),
    // The young generation is where a burst's garbage lands; large objects are bodies and strings.
    newSpaceMB: round((m.spaces.find((s) => s.space_name === 'new_space')?.space_size ?? 0) / MB),
    largeObjectSpaceMB: round((m.spaces.find((s) => s.space_name === 'large_object_space')?.space_size ?? 0) / MB),
  };
}

/** The sample as it is, then after a full collection (what the heap holds alive). */
async function both(pid: number, client: Inspector) {
  const asIs = await sample(pid, client);
  await client.collect();
  return { asIs, afterFullGc: await sample(pid, client) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  ensureBuild();
  const certificates = createTestCertificates();
  process.env.NODE_EXTRA_CA_CERTS = certificates.caFile;
  process.env.SERVICEPAY_TEST_TLS_DIR = certificates.dir;
  const cleanup: (() => unknown)[] = [() => fs.rmSync(certificates.dir, { recursive: true, force: true })];
  try {
    const db = await scratchDatabase();
    cleanup.unshift(() => db.drop());
    const receiver = await startReceiver();
    cleanup.unshift(() => receiver.close());
    const inspectPort = await freePort();
    const server = await startApp({ DATABASE_URL: db.url, SANDBOX_PENDING_MS: '3000', NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` }, 'memory');
    cleanup.unshift(() => server.stop());
    const client = await inspector(inspectPort);
    cleanup.unshift(() => client.close());
    if (args['v8-flags']) await client.setFlags(args['v8-flags']);
    // Warm: every kind of page and route compiled once, then quiet as a server between bursts.
    await fuzz(server.url, { seed: 1, requests: 500, concurrency: 8, webhookUrl: receiver.url });
    // 5 s after the warm-up (the resilience fuzz test's idle figure), then after the quiet minute
    // (with lib/server-memory.ts, after the release its quiet spell brings).
    await sleep(5_000);
    const warm = await sample(server.pid, client);
    await sleep(Math.max(0, counts['idle-seconds'] - 5) * 1000);
    const idle = await sample(server.pid, client);
    const rounds = [];
    for (let round = 0; round < counts.rounds; round++) {
      const seed = args.seed ? Number(args.seed) + round : randomInt(2 ** 31);
      const report = await fuzz(server.url, { seed, requests: counts.requests, concurrency: 8, webhookUrl: receiver.url });
      const rightAfter = await sample(server.pid, client);
      await sleep(counts['idle-seconds'] * 1000);
      const later = await both(server.pid, client);
      rounds.push({ seed, requests: report.requests, serverErrors: report.serverErrors.length, transportErrors: report.transportErrors, rightAfter, [`after${counts['idle-seconds']}s`]: later });
    }
    console.log(JSON.stringify({ v8Flags: args['v8-flags'] || undefined, warm, idle, rounds }, null, 2));
  } finally {
    for (const step of cleanup) await step();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
