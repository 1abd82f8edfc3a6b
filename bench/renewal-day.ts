// `npm run bench:renewal-day`: a renewal day at scale (issue 41). BENCH_RENEWAL_PLANS due plans
// (100,000 unless set) of BENCH_RENEWAL_MERCHANTS merchants on the real PostgreSQL, each charged
// through its Wompi account, here the Wompi double (test/wompi-double.ts) answering every call in
// 300 ms; swept by one instance, then by three (BENCH_RENEWAL_INSTANCES, e.g. "1,3"), each a
// process of its own (bench/renewal-day-worker.ts) running the timer's sweep with a 10-connection
// pool and the SWEEP_* settings of the environment (the defaults unless set; the report names
// them). Reported: the time until every plan is charged, renewals a second, each instance's RSS
// from its first 2,000 charges on, the most PostgreSQL connections open at once, and that every
// plan was charged exactly once. Writes the "A renewal day" section of docs/benchmarks.md.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import postgres from 'postgres';
import { openPostgres } from '@/db/client';
import type { BoundedLimits } from '@/lib/bounded';
import { burstSettings } from '@/lib/env';
import { startWompiDouble, testWompiKeys } from '@/test/wompi-double';
import { processCpuMs } from './cpu';
import { median, writeSection } from './report';
import { seedPlans } from './seed-plans';
import { createScratchDatabase } from './setup';

const PLANS = Number(process.env.BENCH_RENEWAL_PLANS ?? 100_000);
const MERCHANTS = Number(process.env.BENCH_RENEWAL_MERCHANTS ?? 50);
const INSTANCES = (process.env.BENCH_RENEWAL_INSTANCES ?? '1,3').split(',').map(Number);
const LATENCY_MS = 300;
const HEADING = '## A renewal day (npm run bench:renewal-day)';
const NOW = new Date('2027-06-01T15:00:00.000Z');

interface Sample {
  t: number;
  rss: number;
  /** Charges the instance's processor had answered by then. */
  charged: number;
}

interface InstanceResult {
  ms: number;
  /** CPU time (user + system) the instance's process used while it swept. */
  cpuMs: number;
  limits: BoundedLimits;
  samples: Sample[];
  summary: { due: number; approved: number; declined: number; error: number; pending: number; skipped: number };
}

interface Run {
  instances: number;
  wallMs: number;
  results: InstanceResult[];
  maxConnections: number;
  charged: { plans: number; once: number; twiceOrMore: number; transactions: number; approved: number };
  /** CPU time while the instances swept: PostgreSQL's backends of the scratch database, and this process (the Wompi double). */
  cpuMs: { postgres: number; double: number };
  loadAtStart: number;
  loadAtEnd: number;
}

function startWorker(env: Record<string, string>): { child: ChildProcess; ready: Promise<void>; result: Promise<InstanceResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'renewal-day-worker.ts')], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const samples: Sample[] = [];
  let readyResolve!: () => void;
  const ready = new Promise<void>((resolve) => (readyResolve = resolve));
  const result = new Promise<InstanceResult>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'READY') return readyResolve();
      if (!line.startsWith('{')) return;
      const message = JSON.parse(line) as Sample & { done?: boolean; ms: number; cpuMs: number; limits: BoundedLimits; summary: InstanceResult['summary'] };
      if (message.done) resolve({ ms: message.ms, cpuMs: message.cpuMs, limits: message.limits, samples, summary: message.summary });
      else samples.push({ t: message.t, rss: message.rss, charged: message.charged });
    });
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`a worker exited with ${code}`))));
  });
  return { child, ready, result };
}

async function run(instances: number): Promise<Run> {
  const scratch = await createScratchDatabase();
  const double = await startWompiDouble({ latencyMs: LATENCY_MS, recordRequests: false, finalOnCreate: true });
  const keysFile = path.join(os.tmpdir(), `servicepay-renewal-day-${process.pid}-${instances}.json`);
  const admin = postgres(scratch.url, { max: 2, onnotice: () => {} });
  try {
    const database = await openPostgres(scratch.url, { max: 4 });
    const keys: Record<string, ReturnType<typeof testWompiKeys>> = {};
    const perMerchant = Math.ceil(PLANS / MERCHANTS);
    for (let m = 0; m < MERCHANTS; m++) {
      const count = Math.min(perMerchant, PLANS - m * perMerchant);
      if (count <= 0) break;
      const merchantKeys = testWompiKeys();
      double.addMerchant(merchantKeys);
      const first = double.addSources(merchantKeys.publicKey, count);
      const { merchantId } = await seedPlans(database.db, { count, due: count, dueAt: NOW, prefix: `r${instances}m${String(m).padStart(String(MERCHANTS).length, '0')}`, wompiSourceFrom: first });
      keys[merchantId] = merchantKeys;
    }
    await database.close();
    await scratch.vacuum();
    fs.writeFileSync(keysFile, JSON.stringify(keys));
    const env = { DATABASE_URL: scratch.url, BENCH_DB_URL: scratch.url, BENCH_WOMPI_URL: double.url, BENCH_NOW: String(NOW.getTime()), BENCH_KEYS_FILE: keysFile };
    const workers = Array.from({ length: instances }, () => startWorker(env));
    await Promise.all(workers.map((w) => w.ready));
    const loadAtStart = os.loadavg()[0]!;
    let maxConnections = 0;
    // Each backend of the scratch database: its CPU time when first and last seen, from 0 for one
    // born after the poll before the sweep (one that ends between two polls loses its last half second).
    const backends = new Map<number, { first: number; last: number }>();
    let polled = false;
    const countConnections = async () => {
      const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${scratch.name} and pid <> pg_backend_pid()`;
      // The bench's own two connections are not the instances'.
      maxConnections = Math.max(maxConnections, rows.length - 1);
      for (const { pid } of rows) {
        const used = processCpuMs(pid);
        if (used === undefined) continue;
        const seen = backends.get(pid);
        if (seen) seen.last = used;
        else backends.set(pid, { first: polled ? 0 : used, last: used });
      }
    };
    await countConnections();
    polled = true;
    const poll = setInterval(() => void countConnections().catch(() => {}), 500);
    const started = Date.now();
    const doubleAtGo = process.cpuUsage();
    for (const w of workers) w.child.stdin!.write('go\n');
    const results = await Promise.all(workers.map((w) => w.result));
    const wallMs = Date.now() - started;
    const doubleCpu = process.cpuUsage(doubleAtGo);
    clearInterval(poll);
    await countConnections();
    const [counts] = await admin<{ plans: number; once: number; twice: number; transactions: number; approved: number }[]>`
      with per_plan as (
        select p.id, count(t.id) filter (where t.kind = 'RENEWAL') as n
        from subscription_plans p left join transactions t on t.plan_id = p.id
        group by p.id
      )
      select count(*)::int as plans, count(*) filter (where n = 1)::int as once, count(*) filter (where n > 1)::int as twice,
        (select count(*)::int from transactions where kind = 'RENEWAL') as transactions,
        (select count(*)::int from transactions where kind = 'RENEWAL' and status = 'APPROVED') as approved
      from per_plan`;
    return {
      instances,
      wallMs,
      results,
      maxConnections,
      charged: { plans: counts!.plans, once: counts!.once, twiceOrMore: counts!.twice, transactions: counts!.transactions, approved: counts!.approved },
      cpuMs: { postgres: [...backends.values()].reduce((sum, b) => sum + b.last - b.first, 0), double: (doubleCpu.user + doubleCpu.system) / 1000 },
      loadAtStart,
      loadAtEnd: os.loadavg()[0]!,
    };
  } finally {
    await admin.end({ timeout: 1 });
    await double.close();
    fs.rmSync(keysFile, { force: true });
    await scratch.drop();
  }
}

/** The SWEEP_* limits the instances reported having swept with, and whether they are the defaults. */
function limitsOf(runs: Run[]): string {
  const used = runs.flatMap((r) => r.results.map(({ limits }) => limits));
  const named = new Set(used.map((l) => `SWEEP_CONCURRENCY ${l.overall}, SWEEP_MERCHANT_CONCURRENCY ${l.perKey}`));
  const defaults = burstSettings({});
  const byDefault = used.every((l) => l.overall === defaults.SWEEP_CONCURRENCY && l.perKey === defaults.SWEEP_MERCHANT_CONCURRENCY);
  return `${[...named].join('; ')} (${byDefault ? 'the defaults' : 'set in the environment'})`;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * An instance's RSS is measured from the moment it has charged this many plans: start-up is behind
 * it then (modules compiled, the pool's connections open with their prepared statements, the heap
 * grown to the sweep's working set), so what grows after it grows with the number of plans.
 */
const RSS_BASELINE_CHARGES = 2000;

/**
 * RSS once RSS_BASELINE_CHARGES were charged (in a run too short for that, the median of the first
 * quarter), the most after that, and how much it grew within the second half of the sweep.
 */
function rssOf(samples: Sample[]) {
  const warm = samples.findIndex((s) => s.charged >= RSS_BASELINE_CHARGES);
  const from = warm >= 0 ? warm : Math.max(1, Math.floor(samples.length / 4));
  const baseline = warm >= 0 ? samples[warm]!.rss : median(samples.slice(0, from).map((s) => s.rss));
  const later = samples.slice(from + (warm >= 0 ? 1 : 0)).map((s) => s.rss);
  const peak = later.length ? Math.max(...later) : baseline;
  const secondHalf = samples.slice(Math.floor(samples.length / 2)).map((s) => s.rss);
  const lateGrowth = secondHalf.length ? Math.max(...secondHalf) / secondHalf[0]! - 1 : 0;
  const at = warm >= 0 ? `once ${RSS_BASELINE_CHARGES.toLocaleString('en-US')} were charged` : 'early in the sweep';
  return { baseline, at, peak, growth: peak / baseline - 1, lateGrowth };
}

const percent = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(0)} %`;

function describe(r: Run): string {
  const perInstance = r.results.map((x, i) => {
    const rss = rssOf(x.samples);
    return `instance ${i + 1}: ${x.summary.approved.toLocaleString('en-US')} charged in ${(x.ms / 1000).toFixed(0)} s, RSS ${mb(rss.baseline)} ${rss.at}, at most ${mb(rss.peak)} after (${percent(rss.growth)}), ${percent(rss.lateGrowth)} within the sweep's second half`;
  });
  const rate = (r.charged.approved * 1000) / r.wallMs;
  return [
    `**${r.instances} instance${r.instances > 1 ? 's' : ''}**: all ${r.charged.plans.toLocaleString('en-US')} due plans charged in **${(r.wallMs / 1000).toFixed(0)} s** (${(r.wallMs / 60_000).toFixed(1)} min), ${Math.round(rate).toLocaleString('en-US')} renewals/s; ` +
      `${r.charged.once.toLocaleString('en-US')} plans with exactly one renewal, ${r.charged.twiceOrMore} with more, ${r.charged.approved.toLocaleString('en-US')} APPROVED of ${r.charged.transactions.toLocaleString('en-US')} renewal transactions; ` +
      `at most ${r.maxConnections} PostgreSQL connections open at once (pools: ${r.instances} × 10); load average ${r.loadAtStart.toFixed(1)} at the start, ${r.loadAtEnd.toFixed(1)} at the end.`,
    ...perInstance.map((line) => `- ${line}`),
    `- CPU per renewal: ${perRenewal(r.results.reduce((sum, x) => sum + x.cpuMs, 0))} ms in the instance${r.instances > 1 ? 's' : ''}, ${perRenewal(r.cpuMs.postgres)} ms in PostgreSQL, ${perRenewal(r.cpuMs.double)} ms in the Wompi double and the bench's polling.`,
  ].join('\n');
  function perRenewal(ms: number) {
    return (ms / Math.max(1, r.charged.approved)).toFixed(2);
  }
}

async function main() {
  const cpu = os.cpus();
  const runs: Run[] = [];
  for (const instances of INSTANCES) {
    const r = await run(instances);
    console.log(`${limitsOf([r])}\n${describe(r)}`);
    runs.push(r);
  }
  const body = [
    `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`BENCH_RENEWAL_PLANS=${PLANS} BENCH_RENEWAL_MERCHANTS=${MERCHANTS} BENCH_RENEWAL_INSTANCES=${INSTANCES.join(',')} npm run bench:renewal-day\`; ` +
      `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, PostgreSQL on the same machine. ` +
      `${PLANS.toLocaleString('en-US')} plans due, ${MERCHANTS} merchants with ${Math.ceil(PLANS / MERCHANTS).toLocaleString('en-US')} each, every charge sent to the merchant's Wompi account (the Wompi double over loopback HTTP, answering each call after ${LATENCY_MS} ms, the charge's final status in its reply). ` +
      `Each instance is a process running the sweep once with ${limitsOf(runs)}, a 10-connection pool; webhook delivery held (bench:webhooks measures it). The double and the instances share the machine's cores.`,
    '',
    ...runs.map(describe),
  ].join('\n\n');
  writeSection(body, HEADING);
  console.log(body);
}

void main();
