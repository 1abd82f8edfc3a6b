// npm run bench:usage: metered usage ingestion (docs/billing.md#metered-usage) under `next start`
// on a scratch PostgreSQL database: one report a request (POST /merchants/subscription-plans/{id}/usage)
// and batches of 100 (POST /merchants/usage-reports), in rounds alternating with the framework
// floor (bench/floor-app.ts) as bench:api does. Every tenth report repeats a recent key. Afterwards
// every key is sent once more, in batches, as a client retries, and the database must hold each
// key once with its quantity; otherwise the run fails and writes nothing. Writes the "Usage
// ingestion" section of docs/benchmarks.md. Traffic goes to 127.0.0.1 only.
//
//   npx tsx bench/usage.ts [--rounds 5] [--seconds 10] [--merchants 400] [--profile | --no-profile]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openPostgres, queryRows } from '@/db/client';
import { createMerchant } from '@/lib/merchants/merchants';
import { createPaymentLink } from '@/lib/plans/create-link';
import { MAX_USAGE_BATCH } from '@/lib/plans/schemas';
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
    merchants: { type: 'string', default: '400' },
    ...PROFILE_OPTIONS,
  },
});
const settings = wholeNumbers(args, ['rounds', 'seconds', 'warmup-seconds', 'profile-seconds', 'merchants']);
const AIM = 2000;
const HEADING = '## Usage ingestion (npm run bench:usage)';
/** Every REPEAT-th report resends the key of the report LAG before it (or, in a batch, of the plan's batch before). */
const REPEAT = 10;
const LAG = 25;
const BATCH = MAX_USAGE_BATCH;

interface Sent {
  planIndex: number;
  quantity: number;
}

/** Every key sent, with its plan and quantity: report n has key `<prefix><n>` and 1..9 units. */
class SentKeys {
  private cursor = 0;
  readonly sent = new Map<string, Sent>();
  constructor(readonly merchants: BenchMerchant[]) {}

  /** A new report of the plan. */
  fresh(planIndex: number, prefix: string): [string, Sent] {
    const n = this.cursor++;
    const entry: [string, Sent] = [`${prefix}${n}`, { planIndex, quantity: (n % 9) + 1 }];
    this.sent.set(...entry);
    return entry;
  }
}

const usagePath = (m: BenchMerchant) => `/merchants/subscription-plans/${m.planId}/usage`;
const post = (m: BenchMerchant, path: string, body: unknown): BenchRequest => ({
  method: 'POST',
  path,
  headers: { authorization: m.authorization, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A source of new reports with this key prefix, over every merchant's plan. */
abstract class Reports implements RequestSource {
  constructor(
    protected readonly sentKeys: SentKeys,
    protected readonly prefix: string,
  ) {}

  get keys(): number {
    return this.sentKeys.merchants.length;
  }

  abstract request(): BenchRequest;
}

/** One report a request, the plans in turn; every REPEAT-th resends the key sent LAG before it. */
class SingleReports extends Reports {
  private readonly order: [string, Sent][] = [];

  request(): BenchRequest {
    const n = this.order.length;
    const [key, report] = n >= LAG && n % REPEAT === 0 ? this.order[n - LAG]! : this.sentKeys.fresh(n % this.keys, this.prefix);
    this.order.push([key, report]);
    const merchant = this.sentKeys.merchants[report.planIndex]!;
    return post(merchant, usagePath(merchant), { quantity: report.quantity, idempotencyKey: key });
  }
}

/** Batches of BATCH reports of one plan, the plans in turn; every REPEAT-th report resends a key of the plan's batch before. */
class BatchReports extends Reports {
  private batches = 0;
  private readonly previous = new Map<number, [string, Sent][]>();
  readonly weight = BATCH;

  request(): BenchRequest {
    const planIndex = this.batches++ % this.keys;
    const before = this.previous.get(planIndex);
    const reports = Array.from({ length: BATCH }, (_, j) => (before && j % REPEAT === 0 ? before[j]! : this.sentKeys.fresh(planIndex, this.prefix)));
    this.previous.set(planIndex, reports);
    return batchOf(this.sentKeys.merchants[planIndex]!, reports);
  }
}

function batchOf(merchant: BenchMerchant, reports: [string, Sent][]): BenchRequest {
  return post(merchant, '/merchants/usage-reports', {
    reports: reports.map(([key, r]) => ({ subscriptionPlanId: merchant.planId, quantity: r.quantity, idempotencyKey: key })),
  });
}

/** Each key sent, once more, in batches by plan. */
class Retries implements RequestSource {
  private readonly batches: BenchRequest[] = [];
  private cursor = 0;
  readonly weight = BATCH;
  constructor(private readonly sentKeys: SentKeys) {
    const byPlan = new Map<number, [string, Sent][]>();
    for (const entry of sentKeys.sent) {
      const entries = byPlan.get(entry[1].planIndex) ?? [];
      if (!entries.length) byPlan.set(entry[1].planIndex, entries);
      entries.push(entry);
    }
    for (const [planIndex, entries] of byPlan) {
      for (let i = 0; i < entries.length; i += BATCH) this.batches.push(batchOf(sentKeys.merchants[planIndex]!, entries.slice(i, i + BATCH)));
    }
  }

  get keys(): number {
    return this.sentKeys.merchants.length;
  }

  get count(): number {
    return this.batches.length;
  }

  request(): BenchRequest {
    return this.batches[this.cursor++ % this.batches.length]!;
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

type Kind = 'single' | 'batch' | 'floor';
const KINDS: Kind[] = ['single', 'batch', 'floor'];
interface Contender {
  kind: Kind;
  server: RunningServer;
  source: RequestSource;
  scenario: Scenario;
}

const failures: string[] = [];
/** Reports a request carries. */
const weightOf = (c: Contender) => c.source.weight ?? 1;

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
  const wrong = wrongRun(c.scenario, result, c.source.keys, weightOf(c));
  if (wrong) failures.push(`${label} ${c.kind}: ${wrong}`);
  const cpu = (x: number | undefined) => x?.toFixed(2) ?? '?';
  console.log(
    `  ${label.padEnd(12)} ${c.kind.padEnd(6)} ${result.rps.toFixed(0).padStart(6)} req/s${c.kind === 'floor' ? '' : ` (${(result.rps * weightOf(c)).toFixed(0)} reports/s)`}  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  ` +
      `server CPU ${cpu(result.serverCpuMs)} ms/req  database CPU ${cpu(result.dbCpuMs)} ms/req  other CPU ${result.otherCpu === undefined ? '?' : Math.round(result.otherCpu * 100)} %  ${JSON.stringify(result.statusCodes)}`,
  );
  return result;
}

const created = (r: RunResult) => r.statusCodes['201'] ?? 0;

/** What the database holds against what was sent: each key once, with its quantity; at least one row per 201. */
async function countCheck(url: string, keys: SentKeys, answered201: number) {
  const database = await openPostgres(url, { max: 1 });
  try {
    const [row] = await queryRows<{ rows: string; keys: string; units: string }>(
      database.db,
      sql`select count(*) as rows, count(distinct (plan_id, idempotency_key)) as keys, coalesce(sum(quantity), 0) as units from usage_reports`,
    );
    const expected = { rows: keys.sent.size, units: [...keys.sent.values()].reduce((a, r) => a + r.quantity, 0) };
    const found = { rows: Number(row!.rows), keys: Number(row!.keys), units: Number(row!.units) };
    // Each key once with its units; a 201 recorded at least one row, though a request whose answer timed out at the client has none.
    const ok = found.rows === expected.rows && found.keys === expected.rows && found.units === expected.units && answered201 <= found.rows;
    return { ok, expected, found, answered201 };
  } finally {
    await database.close();
  }
}

type Round = { round: number } & Record<Kind, RunResult>;

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
    const keys = new SentKeys(merchants);
    const [floor, next] = [servers[0]!, servers[1]!];
    const contenders: Record<Kind, Contender> = {
      floor: { kind: 'floor', server: floor, source: new Rotation(merchants, 'floor'), scenario: 'floor' },
      single: { kind: 'single', server: next, source: new SingleReports(keys, 's'), scenario: 'usage' },
      batch: { kind: 'batch', server: next, source: new BatchReports(keys, 'b'), scenario: 'usage-batch' },
    };
    console.log(`usage reports on ${next.url}, floor app on ${floor.url}; ${CONNECTIONS} connections`);
    let answered201 = 0;
    for (const kind of KINDS) answered201 += created(await measure(contenders[kind], 'warm-up', { seconds: settings['warmup-seconds'] }));
    const rounds: Round[] = [];
    for (let round = 1; round <= settings.rounds; round++) {
      // Who goes first turns each round.
      const order = KINDS.map((_, i) => KINDS[(i + round - 1) % KINDS.length]!);
      const results = {} as Record<Kind, RunResult>;
      for (const kind of order) results[kind] = await measure(contenders[kind], `round ${round}`, { seconds: settings.seconds });
      answered201 += created(results.single) + created(results.batch);
      rounds.push({ round, ...results });
    }
    const retries = new Retries(keys);
    const retried = await measure({ kind: 'batch', server: next, source: retries, scenario: 'usage-batch' }, 'retries', { seconds: 3600, amount: retries.count });
    answered201 += created(retried);
    const count = await countCheck(db.url, keys, answered201);
    console.log(`count check: ${JSON.stringify(count)}`);
    if (!count.ok) failures.push(`the database does not hold each report once: ${JSON.stringify(count)}`);

    await stopAll();
    const rate = (kind: Kind) => median(rounds.map((r) => r[kind].rps * weightOf(contenders[kind])));
    const profiled = wantsProfile(args, rate('single') < AIM) ? await profileNext(env, ports.next, merchants) : undefined;
    if (profiled === null) failures.push('the profiled server did not start');
    const totalSeconds = Math.round((Date.now() - started) / 1000);
    if (failures.length) {
      console.error(`\nThese figures measure the wrong thing; docs/benchmarks.md left as it was:\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
      return;
    }
    writeSection(
      sectionBody({ date: new Date(started).toISOString(), totalSeconds, built, loadStart, version: db.serverVersion, rounds, retried, retries: keys.sent.size, count, profiled }),
      HEADING,
    );
    console.log(`\n${rate('single').toFixed(0)} reports/s one a request, ${rate('batch').toFixed(0)} in batches of ${BATCH} (aim ≥ ${AIM}); wrote the "Usage ingestion" section of docs/benchmarks.md in ${totalSeconds} s`);
  } finally {
    await stopAll();
    await db.drop();
    floorApp.remove();
  }
}

/** A fresh `next start` under --cpu-prof, loaded flat out with new single reports, summarized. */
async function profileNext(env: Record<string, string>, port: number, merchants: BenchMerchant[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-bench-usage-prof-'));
  const server = await startServer('next', { port, env, cpuProfileDir: dir }).catch((error: unknown) => (console.error(error), null));
  if (!server) return null;
  let requests = 0;
  try {
    const source = new SingleReports(new SentKeys(merchants), 'p');
    requests = (await measure({ kind: 'single', server, source, scenario: 'usage' }, 'profiled', { seconds: settings['profile-seconds'] })).requests;
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
  rounds: Round[];
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
  const single = of('single', (r) => r.rps);
  const batched = of('batch', (r) => r.rps) * BATCH;
  const others = run.rounds.flatMap((r) => KINDS.map((k) => r[k].otherCpu)).filter((x): x is number => x !== undefined);
  const row = (label: string, r: Record<Kind, RunResult>, bold = false) => {
    const b = (x: string) => (bold ? `**${x}**` : x);
    return `| ${label} | ${b(n0(r.single.rps))} | ${r.single.p50.toFixed(1)} / ${r.single.p99.toFixed(1)} | ${b(n0(r.batch.rps * BATCH))} (${n0(r.batch.rps)} requests/s) | ${r.batch.p50.toFixed(1)} / ${r.batch.p99.toFixed(1)} | ${n0(r.floor.rps)} | ${ms2(r.single.serverCpuMs)} / ${ms2(r.batch.serverCpuMs)} / ${ms2(r.floor.serverCpuMs)} | ${ms2(r.single.dbCpuMs)} / ${ms2(r.batch.dbCpuMs)} |`;
  };
  const medians = Object.fromEntries(
    KINDS.map((k) => [k, { rps: of(k, (r) => r.rps), p50: of(k, (r) => r.p50), p99: of(k, (r) => r.p99), serverCpuMs: of(k, (r) => r.serverCpuMs), dbCpuMs: of(k, (r) => r.dbCpuMs) } as RunResult]),
  ) as Record<Kind, RunResult>;
  const lines = [
    `Taken ${run.date} by \`npm run bench:usage${argv.length ? ` -- ${argv.join(' ')}` : ''}\`, ${run.totalSeconds} s in all${run.built ? ' (the production build made first)' : ''}.`,
    '',
    `- Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, shared this session with other engineers' builds, tests and benchmarks: load average ${run.loadStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end; other processes took a median ${pct(others.length ? median(others) : undefined)} of the CPU during a run. Load generator, both servers and PostgreSQL share it. Node ${process.version}, PostgreSQL ${run.version}.`,
    `- One instance: \`next start\` of this build (production, openPostgres's default pool of 10) on a scratch database migrated by \`npm run db:migrate\`, with ${n0(settings.merchants)} merchants made by \`createMerchant\`, each with one ACTIVE metered plan made by \`createPaymentLink\` (5 seats, \`usage: { unitAmount: 20000, includedUnits: 100 }\`); rate limits on, in process, each key far under its 10,000 reports a minute. Beside it the floor app of bench:api (bench/floor-app.ts: a minimal Next.js route answering 401, the most a route of this framework does on this machine).`,
    `- Load: autocannon, ${CONNECTIONS} connections, keep-alive, flat out; a ${settings['warmup-seconds']} s warm-up of each, then ${settings.rounds} rounds of ${settings.seconds} s of one report a request (\`POST /merchants/subscription-plans/{id}/usage\`), batches of ${BATCH} (\`POST /merchants/usage-reports\`, one plan's reports a batch) and the floor app, who goes first turning each round. Each report is \`{ quantity: 1..9, idempotencyKey }\` with a new key, and every ${REPEAT}th resends a recent key (one request's: the report ${LAG} before; a batch's: the plan's batch before). Figures are medians over the rounds.`,
    '',
    `| round | one a request: reports/s | p50 / p99 ms | batches of ${BATCH}: reports/s | p50 / p99 ms | floor app 401 req/s | server CPU ms/request one / batch / floor | database CPU ms/request one / batch |`,
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...run.rounds.map((r) => row(String(r.round), r)),
    row('**median**', medians, true),
    '',
    `- Aim ≥ ${n0(AIM)} reports/s on one instance: ${batched >= AIM ? `**met in batches** (${n0(batched)}/s)` : `**missed** in batches (${n0(batched)}/s)`}; one report a request gives ${n0(single)}/s, ${pct(single / of('floor', (r) => r.rps))} of what the floor app answers with no work at all.`,
    `- Counted once: afterwards every one of the ${n0(run.retries)} keys sent was sent again, in batches of up to ${BATCH} by plan (${n0(run.retried.rps * BATCH)} reports/s; ${n0(run.retried.statusCodes['200'] ?? 0)} batches answered 200 with their first reports, ${n0(run.retried.statusCodes['201'] ?? 0)} 201: holding a report whose first answer the client never saw). The database then held ${n0(run.count.found.rows)} reports of ${n0(run.count.found.keys)} distinct keys, ${n0(run.count.found.units)} units: exactly the keys and units sent, none twice. No request was answered other than 200 or 201.`,
  ];
  if (run.profiled) {
    lines.push('', `Where one report a request spends its time: \`node --cpu-prof\` on a fresh server under the same load for ${settings['profile-seconds']} s (start-up included), self time by owner.`, '', profileTable('next start, one report a request', run.profiled.summary, run.profiled.requests));
  }
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
