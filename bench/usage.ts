// npm run bench:usage: metered usage ingestion, POST /merchants/subscription-plans/{id}/usage
// (docs/billing.md#metered-usage), under `next start` on a scratch PostgreSQL database, in rounds
// alternating with the framework floor (bench/floor-app.ts) as bench:api does. Every tenth report
// repeats a recent key. Afterwards every key is sent once more, as a client retries, and the
// database must hold each key once with its quantity and as many rows as 201s were answered;
// otherwise the run fails and writes nothing. Writes the "Usage ingestion" section of
// docs/benchmarks.md. Traffic goes to 127.0.0.1 only.
//
//   npx tsx bench/usage.ts [--rounds 5] [--seconds 10] [--merchants 60] [--profile | --no-profile]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openPostgres, queryRows } from '@/db/client';
import { createMerchant } from '@/lib/merchants/merchants';
import { createPaymentLink } from '@/lib/plans/create-link';
import { foreignShare, postgresCpuMsBetween, processCpuMs, sampleCpu, samplePostgres } from './cpu';
import { startFloorRace } from './floor-app';
import { type BenchRequest, CONNECTIONS, type RequestSource, Rotation, type RunResult, runLoad, type Scenario, wrongRun } from './load';
import { mainThreadProfile, PROFILE_OPTIONS, summarizeProfile, wantsProfile } from './profile';
import { median, profileTable, writeSection } from './report';
import { apiServerEnv, asProduction, type BenchMerchant, freePort, type RunningServer, startServer, wholeNumbers } from './setup';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '10' },
    'warmup-seconds': { type: 'string', default: '8' },
    // One metered plan each; reports rotate over them, so each key stays far under its limit.
    merchants: { type: 'string', default: '60' },
    ...PROFILE_OPTIONS,
  },
});
const settings = wholeNumbers(args, ['rounds', 'seconds', 'warmup-seconds', 'profile-seconds', 'merchants']);
const AIM = 2000;
const HEADING = '## Usage ingestion (npm run bench:usage)';
/** Every REPEAT-th report resends the key of the report LAG before it. */
const REPEAT = 10;
const LAG = 25;

/** The reports: report n is of plan n mod plans, with key `<prefix><n>` and 1..9 units; or a repeat. */
class UsageReports implements RequestSource {
  private cursor = 0;
  /** Every key sent, with its quantity. */
  readonly sent = new Map<string, { planIndex: number; quantity: number }>();
  constructor(
    private readonly merchants: BenchMerchant[],
    private readonly prefix = 'r',
  ) {}

  get keys(): number {
    return this.merchants.length;
  }

  request(): BenchRequest {
    const n = this.cursor++;
    const k = n >= LAG && n % REPEAT === 0 ? n - LAG : n;
    const report = { planIndex: k % this.merchants.length, quantity: (k % 9) + 1 };
    this.sent.set(`${this.prefix}${k}`, report);
    return this.post(`${this.prefix}${k}`, report);
  }

  post(key: string, { planIndex, quantity }: { planIndex: number; quantity: number }): BenchRequest {
    const merchant = this.merchants[planIndex]!;
    return {
      method: 'POST',
      path: `/merchants/subscription-plans/${merchant.planId}/usage`,
      headers: { authorization: merchant.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ quantity, idempotencyKey: key }),
    };
  }
}

/** Each key sent, once more, in order. */
class Retries implements RequestSource {
  private readonly all: [string, { planIndex: number; quantity: number }][];
  private cursor = 0;
  constructor(private readonly reports: UsageReports) {
    this.all = [...reports.sent];
  }

  get keys(): number {
    return this.reports.keys;
  }

  get count(): number {
    return this.all.length;
  }

  request(): BenchRequest {
    const [key, report] = this.all[this.cursor++ % this.all.length]!;
    return this.reports.post(key, report);
  }
}

/** `count` merchants, each with one metered monthly plan made by createPaymentLink, then made ACTIVE as a first payment leaves it. */
async function seedMeteredPlans(url: string, count: number): Promise<BenchMerchant[]> {
  const database = await openPostgres(url, { max: 4 });
  try {
    const merchants: BenchMerchant[] = [];
    for (let i = 0; i < count; i++) {
      const m = await createMerchant(database.db, { name: `Bench usage ${i}` });
      const link = await database.db.transaction((tx) =>
        createPaymentLink(tx, m.merchantId, {
          customer: { phone: '+573001234567', email: 'ana@example.com' },
          plan: { externalReference: `usage-${i}`, description: 'Plan por uso', amount: 1_000_000, modality: 'RECURRING', quantity: 5, usage: { unitAmount: 20_000, includedUnits: 100 } },
        }),
      );
      merchants.push({ authorization: `Bearer ${m.apiKey}:${m.apiSecret}`, planId: link.subscriptionPlanId });
    }
    await database.db.execute(sql`update subscription_plans set status = 'ACTIVE', payment_method_token = 'pm_sandbox_approve_bench', next_charge_date = now() + interval '1 month', billing_anchor_day = 15`);
    return merchants;
  } finally {
    await database.close();
  }
}

type Kind = 'next' | 'floor';
interface Contender {
  kind: Kind;
  server: RunningServer;
  source: RequestSource;
  scenario: Scenario;
}

const failures: string[] = [];

/** One checked flat-out run, with the server's and PostgreSQL's CPU per request and what other processes took. */
async function measure(c: Contender, label: string, options: { seconds: number; amount?: number }): Promise<RunResult> {
  const before = sampleCpu([process.pid, c.server.pid]);
  const serverBefore = processCpuMs(c.server.pid);
  const dbBefore = samplePostgres();
  const r = await runLoad({ url: c.server.url, scenario: c.scenario, rotation: c.source, ...options });
  const serverAfter = processCpuMs(c.server.pid);
  const dbMs = postgresCpuMsBetween(dbBefore, samplePostgres());
  const result: RunResult = {
    ...r,
    otherCpu: foreignShare(before, sampleCpu([process.pid, c.server.pid])),
    serverCpuMs: serverBefore === undefined || serverAfter === undefined || !r.requests ? undefined : (serverAfter - serverBefore) / r.requests,
    dbCpuMs: dbMs === undefined || !r.requests ? undefined : dbMs / r.requests,
  };
  const wrong = wrongRun(c.scenario, result, c.source.keys);
  if (wrong) failures.push(`${label} ${c.kind}: ${wrong}`);
  const cpu = (x: number | undefined) => x?.toFixed(2) ?? '?';
  console.log(
    `  ${label.padEnd(12)} ${c.kind.padEnd(5)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  ` +
      `server CPU ${cpu(result.serverCpuMs)} ms/req  database CPU ${cpu(result.dbCpuMs)} ms/req  other CPU ${result.otherCpu === undefined ? '?' : Math.round(result.otherCpu * 100)} %  ${JSON.stringify(result.statusCodes)}`,
  );
  return result;
}

const created = (r: RunResult) => r.statusCodes['201'] ?? 0;

/** What the database holds against what was sent: each key once, with its quantity, one row per 201. */
async function countCheck(url: string, reports: UsageReports, answered201: number) {
  const database = await openPostgres(url, { max: 1 });
  try {
    const [row] = await queryRows<{ rows: string; keys: string; units: string }>(
      database.db,
      sql`select count(*) as rows, count(distinct (plan_id, idempotency_key)) as keys, coalesce(sum(quantity), 0) as units from usage_reports`,
    );
    const expected = { rows: reports.sent.size, units: [...reports.sent.values()].reduce((a, r) => a + r.quantity, 0) };
    const found = { rows: Number(row!.rows), keys: Number(row!.keys), units: Number(row!.units) };
    // Each key once with its units; a 201 is one row, though a report whose answer timed out at the client has none.
    const ok = found.rows === expected.rows && found.keys === expected.rows && found.units === expected.units && answered201 <= found.rows;
    return { ok, expected, found, answered201 };
  } finally {
    await database.close();
  }
}

async function main() {
  const { started, loadStart, built, floorApp, db } = await startFloorRace();
  const servers: RunningServer[] = [];
  const stopAll = async () => {
    for (const s of servers.splice(0)) await s.stop();
  };
  try {
    const merchants = await asProduction(() => seedMeteredPlans(db.url, settings.merchants));
    console.log(`scratch database ${db.name} (PostgreSQL ${db.serverVersion}); ${settings.merchants} merchants with an ACTIVE metered plan each`);
    const ports = { next: await freePort(), floor: await freePort() };
    const env = apiServerEnv(db.url, `http://127.0.0.1:${ports.next}`);
    // The reference starts first (bench:api's START_ORDER).
    servers.push(await startServer('floor', { port: ports.floor, env, floorDir: floorApp.dir }));
    servers.push(await startServer('next', { port: ports.next, env }));
    const reports = new UsageReports(merchants);
    const contenders: Record<Kind, Contender> = {
      floor: { kind: 'floor', server: servers[0]!, source: new Rotation(merchants, 'floor'), scenario: 'floor' },
      next: { kind: 'next', server: servers[1]!, source: reports, scenario: 'usage' },
    };
    console.log(`usage reports on ${contenders.next.server.url}, floor app on ${contenders.floor.server.url}; ${CONNECTIONS} connections`);
    let answered201 = 0;
    for (const kind of ['next', 'floor'] as const) answered201 += created(await measure(contenders[kind], 'warm-up', { seconds: settings['warmup-seconds'] }));
    const rounds: { round: number; next: RunResult; floor: RunResult }[] = [];
    for (let round = 1; round <= settings.rounds; round++) {
      const order: Kind[] = round % 2 ? ['next', 'floor'] : ['floor', 'next'];
      const results = {} as Record<Kind, RunResult>;
      for (const kind of order) results[kind] = await measure(contenders[kind], `round ${round}`, { seconds: settings.seconds });
      answered201 += created(results.next);
      rounds.push({ round, ...results });
    }
    const retries = new Retries(reports);
    const retried = await measure({ ...contenders.next, source: retries }, 'retries', { seconds: 3600, amount: retries.count });
    answered201 += created(retried);
    const count = await countCheck(db.url, reports, answered201);
    console.log(`count check: ${JSON.stringify(count)}`);
    if (!count.ok) failures.push(`the database does not hold each report once: ${JSON.stringify(count)}`);

    await stopAll();
    const rps = median(rounds.map((r) => r.next.rps));
    const profiled = wantsProfile(args, rps < AIM) ? await profileNext(env, ports.next, merchants) : undefined;
    if (profiled === null) failures.push('the profiled server did not start');
    const totalSeconds = Math.round((Date.now() - started) / 1000);
    if (failures.length) {
      console.error(`\nThese figures measure the wrong thing; docs/benchmarks.md left as it was:\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
      return;
    }
    writeSection(
      sectionBody({ date: new Date(started).toISOString(), totalSeconds, built, loadStart, version: db.serverVersion, rounds, retried, retries: retries.count, count, profiled }),
      HEADING,
    );
    console.log(`\n${rps.toFixed(0)} reports/s (aim ≥ ${AIM}); wrote the "Usage ingestion" section of docs/benchmarks.md in ${totalSeconds} s`);
  } finally {
    await stopAll();
    await db.drop();
    floorApp.remove();
  }
}

/** A fresh `next start` under --cpu-prof, loaded flat out with new reports, summarized. */
async function profileNext(env: Record<string, string>, port: number, merchants: BenchMerchant[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-bench-usage-prof-'));
  const server = await startServer('next', { port, env, cpuProfileDir: dir }).catch((error: unknown) => (console.error(error), null));
  if (!server) return null;
  let requests = 0;
  try {
    const reports = new UsageReports(merchants, 'p');
    requests = (await measure({ kind: 'next', server, source: reports, scenario: 'usage' }, 'profiled', { seconds: settings['profile-seconds'] })).requests;
  } finally {
    await server.stop();
  }
  const file = mainThreadProfile(dir);
  console.log(`profile: ${file}`);
  return { summary: summarizeProfile(file), requests };
}

interface UsageRun {
  date: string;
  totalSeconds: number;
  built: boolean;
  loadStart: number;
  version: string;
  rounds: { round: number; next: RunResult; floor: RunResult }[];
  retried: RunResult;
  retries: number;
  count: Awaited<ReturnType<typeof countCheck>>;
  profiled?: { summary: ReturnType<typeof summarizeProfile>; requests: number } | null;
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '?' : `${Math.round(x * 100)} %`);
const ms2 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '?' : x.toFixed(2));

function sectionBody(run: UsageRun): string {
  const cpu = os.cpus();
  const argv = process.argv.slice(2);
  const of = (kind: Kind, pick: (r: RunResult) => number | undefined) => median(run.rounds.map((r) => pick(r[kind]) ?? NaN));
  const rps = of('next', (r) => r.rps);
  const ratio = median(run.rounds.map((r) => r.next.rps / r.floor.rps));
  const others = run.rounds.flatMap((r) => [r.next.otherCpu, r.floor.otherCpu]).filter((x): x is number => x !== undefined);
  const lines = [
    `Taken ${run.date} by \`npm run bench:usage${argv.length ? ` -- ${argv.join(' ')}` : ''}\`, ${run.totalSeconds} s in all${run.built ? ' (the production build made first)' : ''}.`,
    '',
    `- Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, shared this session with other engineers' builds, tests and benchmarks: load average ${run.loadStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end; other processes took a median ${pct(others.length ? median(others) : undefined)} of the CPU during a run. Load generator, both servers and PostgreSQL share it. Node ${process.version}, PostgreSQL ${run.version}.`,
    `- One instance: \`next start\` of this build (production, openPostgres's default pool of 10) on a scratch database migrated by \`npm run db:migrate\`, with ${n0(settings.merchants)} merchants made by \`createMerchant\`, each with one ACTIVE metered plan made by \`createPaymentLink\` (5 seats, \`usage: { unitAmount: 20000, includedUnits: 100 }\`); rate limits on, in process, each key far under its 10,000 reports a minute. Beside it the floor app of bench:api (bench/floor-app.ts: a minimal Next.js route answering 401, the most a route of this framework does on this machine).`,
    `- Load: autocannon, ${CONNECTIONS} connections, keep-alive, flat out; a ${settings['warmup-seconds']} s warm-up of each, then ${settings.rounds} rounds of ${settings.seconds} s, ours and the floor app alternating who goes first. Each report is \`{ quantity: 1..9, idempotencyKey }\` with a new key, and every ${REPEAT}th resends the key of the report ${LAG} before it (a 200 with the first report, or a 201 if that one is still on its way). Figures are medians over the rounds.`,
    '',
    '| round | ours reports/s | p50 ms | p99 ms | floor app 401 req/s | ours / floor | server CPU ms/request ours / floor | database CPU ms/request | other CPU |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...run.rounds.map(
      (r) =>
        `| ${r.round} | ${n0(r.next.rps)} | ${r.next.p50.toFixed(1)} | ${r.next.p99.toFixed(1)} | ${n0(r.floor.rps)} | ${pct(r.next.rps / r.floor.rps)} | ${ms2(r.next.serverCpuMs)} / ${ms2(r.floor.serverCpuMs)} | ${ms2(r.next.dbCpuMs)} | ${pct(r.next.otherCpu)} |`,
    ),
    `| **median** | **${n0(rps)}** | ${of('next', (r) => r.p50).toFixed(1)} | ${of('next', (r) => r.p99).toFixed(1)} | ${n0(of('floor', (r) => r.rps))} | **${pct(ratio)}** | ${ms2(of('next', (r) => r.serverCpuMs))} / ${ms2(of('floor', (r) => r.serverCpuMs))} | ${ms2(of('next', (r) => r.dbCpuMs))} | |`,
    '',
    `- Aim ≥ ${n0(AIM)} reports/s on one instance: ${rps >= AIM ? 'met' : `**missed** (${n0(rps)}/s, ${pct(ratio)} of what the floor app answers with no work at all)`}.`,
    `- Counted once: afterwards every one of the ${n0(run.retries)} keys sent was sent again (${n0(run.retried.rps)}/s; ${n0(run.retried.statusCodes['200'] ?? 0)} answered 200 with the first report, ${n0(run.retried.statusCodes['201'] ?? 0)} 201: reports whose first answer the client never saw). The database then held ${n0(run.count.found.rows)} reports of ${n0(run.count.found.keys)} distinct keys, ${n0(run.count.found.units)} units: exactly the keys and units sent, none twice; ${n0(run.count.answered201)} 201s were answered in all. No request was answered other than 200 or 201.`,
  ];
  if (run.profiled) {
    lines.push('', `Where the time goes: \`node --cpu-prof\` on a fresh server under the same load for ${settings['profile-seconds']} s (start-up included), self time by owner.`, '', profileTable('next start, usage reports', run.profiled.summary, run.profiled.requests));
  }
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
