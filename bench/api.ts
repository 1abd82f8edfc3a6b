// npm run bench:api: the merchant API under `next start` against the framework floor (a minimal
// Next.js app answering 401 from one route handler, bench/floor-app.ts) and a bare node:http
// server doing the same database work (bench/bare-server.ts), side by side in one run, on a
// scratch PostgreSQL database. Rounds alternate next/bare so drift on a noisy machine hits both; medians are reported
// and the "Merchant API" section of docs/benchmarks.md is rewritten. Traffic goes to 127.0.0.1 only.
//
//   npx tsx bench/api.ts [--rounds 3] [--seconds 20] [--merchants 12000] [--profile | --no-profile]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { foreignShare, postgresCpuMsBetween, processCpuMs, sampleCpu, samplePostgres } from './cpu';
import { CONNECTIONS, expectedStatus, type Measured, Rotation, type RunResult, runLoad, type Scenario, wrongRun } from './load';
import { type FloorApp, startFloorRace } from './floor-app';
import { runPaced } from './paced';
import { mainThreadProfile, PROFILE_OPTIONS, summarizeProfile, wantsProfile } from './profile';
import * as report from './report';
import { type BenchRun, sectionBody } from './section';
import { apiServerEnv, freePort, type RunningServer, seedMerchants, type ServerKind, startServer, wholeNumbers } from './setup';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '20' },
    'warmup-seconds': { type: 'string', default: '5' },
    'paced-seconds': { type: 'string', default: '8' },
    'floor-seconds': { type: 'string', default: '5' },
    // Round-robin over this many keys keeps each key far under its limit: a key comes back every
    // `merchants ÷ req/s` seconds.
    merchants: { type: 'string', default: '12000' },
    ...PROFILE_OPTIONS,
  },
});
const counts = wholeNumbers(args, ['rounds', 'seconds', 'warmup-seconds', 'paced-seconds', 'floor-seconds', 'profile-seconds', 'merchants']);
const settings = {
  rounds: counts.rounds,
  seconds: counts.seconds,
  warmupSeconds: counts['warmup-seconds'],
  pacedSeconds: counts['paced-seconds'],
  floorSeconds: counts['floor-seconds'],
  profileSeconds: counts['profile-seconds'],
  merchants: counts.merchants,
};
/** Paced runs go at this share of next's flat-out throughput, the same rate for both servers. */
const PACE = 0.5;
const MEASURED: Measured[] = ['create', 'status'];
const KINDS: ServerKind[] = ['next', 'bare', 'floor'];
/**
 * The reference starts first and ours last: in bench:compare runs the server started first spent
 * 7–15 % less CPU per request than one started after it, so any such edge goes to the floor app
 * (docs/benchmarks.md, "the order the servers start in").
 */
const START_ORDER: ServerKind[] = ['floor', 'bare', 'next'];
/** The floor app has one route: whatever the round measures, it answers the 401. */
const scenarioOf = (kind: ServerKind, scenario: Scenario): Scenario => (kind === 'floor' ? 'floor' : scenario);

type Servers = Record<ServerKind, RunningServer>;
type Rotations = Record<ServerKind, Record<Scenario, Rotation>>;

const line = (label: string, r: RunResult) =>
  `${label.padEnd(22)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms` +
  `  server CPU ${r.serverCpuMs?.toFixed(2) ?? '?'} ms/req  database CPU ${r.dbCpuMs?.toFixed(2) ?? '?'} ms/req  other CPU ${r.otherCpu === undefined ? '?' : Math.round(r.otherCpu * 100)} %` +
  (r.unexpected + r.errors ? `  !! unexpected ${r.unexpected} errors ${r.errors} ${JSON.stringify(r.statusCodes)}` : '');

const failures: string[] = [];

/** A run counts only if every answer had the expected status and no key came near its limit. */
function check(label: string, scenario: Scenario, r: RunResult): RunResult {
  const wrong = wrongRun(scenario, r, settings.merchants);
  if (wrong) failures.push(`${label}: ${wrong}`);
  return r;
}

/**
 * One checked run, flat out (autocannon) or paced at `rate`, with the server's and PostgreSQL's CPU
 * per request and what other processes took; `headers` go with every flat-out request.
 */
async function measure(
  label: string,
  server: RunningServer,
  scenario: Scenario,
  rotation: Rotation,
  seconds: number,
  { rate, headers }: { rate?: number; headers?: Record<string, string> } = {},
) {
  const pids = [process.pid, server.pid];
  const before = sampleCpu(pids);
  const serverBefore = processCpuMs(server.pid);
  const dbBefore = samplePostgres();
  const options = { url: server.url, scenario, rotation, seconds };
  const result = rate ? await runPaced({ ...options, rate }) : await runLoad({ ...options, headers });
  const serverAfter = processCpuMs(server.pid);
  const dbMs = postgresCpuMsBetween(dbBefore, samplePostgres());
  const r: RunResult = {
    ...result,
    otherCpu: foreignShare(before, sampleCpu(pids)),
    serverCpuMs:
      serverBefore === undefined || serverAfter === undefined || !result.requests ? undefined : (serverAfter - serverBefore) / result.requests,
    dbCpuMs: dbMs === undefined || !result.requests ? undefined : dbMs / result.requests,
  };
  return check(`${label} ${server.kind}`, scenario, r);
}

/** One request per server and scenario: the expected status, and RateLimit-Limit on the 200s (the limiter is on). */
async function smoke(server: RunningServer, rotations: Record<Scenario, Rotation>) {
  for (const scenario of server.kind === 'floor' ? (['floor'] as const) : ([...MEASURED, 'floor'] as const)) {
    const { method, path: target, headers, body } = rotations[scenario].request(scenario);
    const res = await fetch(`${server.url}${target}`, { method, headers, body });
    const text = await res.text();
    if (!expectedStatus(scenario, res.status) || (scenario !== 'floor' && !res.headers.get('ratelimit-limit'))) {
      throw new Error(`${server.kind} ${scenario}: ${res.status} ${text}`);
    }
  }
}

async function startAll(env: Record<string, string>, ports: Record<ServerKind, number>, floorApp: FloorApp, profileDir?: (k: ServerKind) => string): Promise<Servers> {
  const started: RunningServer[] = [];
  try {
    for (const kind of START_ORDER) started.push(await startServer(kind, { port: ports[kind], env, cpuProfileDir: profileDir?.(kind), floorDir: floorApp.dir }));
    return Object.fromEntries(started.map((s) => [s.kind, s])) as Servers;
  } catch (error) {
    for (const server of started) await server.stop();
    throw error;
  }
}

async function stopAll(servers: Servers) {
  for (const kind of KINDS) await servers[kind].stop();
}

/** Warm-up, alternating rounds and a paced run per endpoint, then the plumbing floor. */
async function measureAll(servers: Servers, rotations: Rotations, vacuum: () => Promise<void>) {
  const rounds: report.Round[] = [];
  const paced: report.Paced[] = [];
  for (const scenario of MEASURED) {
    console.log(`${report.SCENARIO_LABEL[scenario]}: warm-up ${settings.warmupSeconds} s each`);
    for (const kind of KINDS) {
      const s = scenarioOf(kind, scenario);
      await measure(`${scenario} warm-up`, servers[kind], s, rotations[kind][s], settings.warmupSeconds);
    }
    for (let round = 1; round <= settings.rounds; round++) {
      // Each server first, second and third in turn, so drift on a noisy machine hits all three.
      const order = KINDS.map((_, i) => KINDS[(i + round - 1) % KINDS.length]!);
      const results = {} as Record<ServerKind, RunResult>;
      for (const kind of order) {
        const s = scenarioOf(kind, scenario);
        results[kind] = await measure(`${scenario} round ${round}`, servers[kind], s, rotations[kind][s], settings.seconds);
        console.log(line(`  round ${round} ${kind}`, results[kind]));
      }
      rounds.push({ scenario, round, ...results });
    }
    const rate = Math.max(1, Math.round(PACE * report.figuresOf(rounds, scenario).next.rps));
    const results = {} as Record<'next' | 'bare', RunResult>;
    for (const kind of ['next', 'bare'] as const) {
      results[kind] = await measure(`${scenario} paced`, servers[kind], scenario, rotations[kind][scenario], settings.pacedSeconds, { rate });
      console.log(line(`  paced ${rate}/s ${kind}`, results[kind]));
    }
    paced.push({ scenario, rate, ...results });
    // The creation rounds leave thousands of new rows: vacuumed and analyzed now, so autovacuum
    // does not run during (and get counted in) whatever is measured next.
    await vacuum();
  }
  // The 401 path: a warm-up of each on it, as every endpoint has (ours has answered only creation
  // and status so far), then ours and the floor app alternating, then bare node:http once for scale.
  const floor = await measureFloor(servers, rotations, '401');
  // The same again as most HTTP clients send it, accepting gzip (docs/api.md#conventions).
  const gzip = await measureFloor(servers, rotations, '401 gzip', ACCEPT_GZIP);
  return { rounds, paced, floor, gzip };
}

/** What Node's fetch, axios and Python's requests send unless told otherwise. */
const ACCEPT_GZIP = { 'accept-encoding': 'gzip, deflate' };

/** The 401 path: a warm-up of ours and the floor app, alternating rounds of the two, then bare node:http once. */
async function measureFloor(servers: Servers, rotations: Rotations, label: string, headers?: Record<string, string>) {
  console.log(`${label} path: warm-up ${settings.warmupSeconds} s each`);
  for (const kind of ['next', 'floor'] as const) {
    await measure(`${label} warm-up`, servers[kind], 'floor', rotations[kind].floor, settings.warmupSeconds, { headers });
  }
  const floorRounds: report.FloorRound[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    const order: ('next' | 'floor')[] = round % 2 ? ['next', 'floor'] : ['floor', 'next'];
    const results = {} as Record<'next' | 'floor', RunResult>;
    for (const kind of order) {
      results[kind] = await measure(`${label} round ${round}`, servers[kind], 'floor', rotations[kind].floor, settings.floorSeconds, { headers });
      console.log(line(`  ${label} round ${round} ${kind}`, results[kind]));
    }
    floorRounds.push({ round, ...results });
  }
  const bare = await measure(`${label} bare`, servers.bare, 'floor', rotations.bare.floor, settings.floorSeconds, { headers });
  console.log(line(`  ${label} bare`, bare));
  return report.floorFiguresOf(floorRounds, bare);
}

/** The same flat-out load on fresh servers under --cpu-prof (slower, so not measured), summarized. */
async function profileAll(env: Record<string, string>, ports: Record<ServerKind, number>, rotations: Rotations, floorApp: FloorApp) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-bench-prof-'));
  const dirOf = (kind: ServerKind) => path.join(dir, kind);
  const servers = await startAll(env, ports, floorApp, dirOf);
  const requests = { next: 0, bare: 0, floor: 0 };
  try {
    // The 401 path on ours and the floor app: the same reply, so the difference is our per-request code.
    for (const kind of ['next', 'floor'] as const) {
      const r = await measure('401 profiled', servers[kind], 'floor', rotations[kind].floor, settings.profileSeconds);
      requests[kind] += r.requests;
      console.log(line(`  profiled 401 ${kind}`, r));
    }
    for (const scenario of MEASURED) {
      for (const kind of ['next', 'bare'] as const) {
        const r = await measure(`${scenario} profiled`, servers[kind], scenario, rotations[kind][scenario], settings.profileSeconds);
        requests[kind] += r.requests;
        console.log(line(`  profiled ${scenario} ${kind}`, r));
      }
    }
  } finally {
    await stopAll(servers);
  }
  return KINDS.map((kind) => {
    const file = mainThreadProfile(dirOf(kind));
    console.log(`${kind} profile: ${file}`);
    return { kind, summary: summarizeProfile(file), requests: requests[kind] };
  });
}

async function main() {
  const { started, loadStart, built, floorApp, db } = await startFloorRace();
  console.log(`scratch database ${db.name} (PostgreSQL ${db.serverVersion}), migrated`);
  let servers: Servers | undefined;
  // Ctrl-C: stop the servers and drop the scratch database before leaving.
  process.once('SIGINT', () => {
    console.error('\ninterrupted: cleaning up');
    void (servers ? stopAll(servers) : Promise.resolve()).finally(() => db.drop().finally(() => (floorApp.remove(), process.exit(130))));
  });
  try {
    const seedStart = Date.now();
    const merchants = await seedMerchants(db.url, settings.merchants);
    console.log(`${settings.merchants} merchants with a key and a plan each, in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

    const ports = { next: await freePort(), bare: await freePort(), floor: await freePort() };
    // Same link URL from both servers, so the replies are the same size.
    const env = apiServerEnv(db.url, `http://127.0.0.1:${ports.next}`);
    // One rotation per server and scenario: each server's limiter counts only its own traffic.
    const rotations = Object.fromEntries(
      KINDS.map((kind) => [kind, { create: new Rotation(merchants, kind), status: new Rotation(merchants, kind), floor: new Rotation(merchants, kind) }]),
    ) as Rotations;

    servers = await startAll(env, ports, floorApp);
    for (const kind of KINDS) await smoke(servers[kind], rotations[kind]);
    console.log(`next start on ${servers.next.url}, bare server on ${servers.bare.url}, floor app on ${servers.floor.url}; ${CONNECTIONS} connections\n`);
    const { rounds, paced, floor, gzip } = await measureAll(servers, rotations, () => db.vacuum());
    await stopAll(servers);
    servers = undefined;

    const figures = MEASURED.map((s) => report.figuresOf(rounds, s, paced));
    console.log(`\n${report.figuresTable(figures)}\n\n${report.aimsList(figures)}\n\n${report.floorTable(floor)}\n\n${report.floorTable(gzip)}\n`);
    const missed = figures.some((f) => !f.aims.floor) || !floor.met;
    const profiles = wantsProfile(args, missed) ? await profileAll(env, ports, rotations, floorApp) : [];

    const totalSeconds = Math.round((Date.now() - started) / 1000);
    console.log(`\ntotal ${totalSeconds} s`);
    if (failures.length) {
      console.error(`\nNot every request got the expected answer, so these figures measure the wrong thing; ${report.DOC} left as it was:\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
      return;
    }
    const run: BenchRun = {
      date: new Date(started).toISOString(),
      totalSeconds,
      built,
      args: process.argv.slice(2),
      loadAverage: { start: loadStart, end: os.loadavg()[0]! },
      postgresVersion: db.serverVersion,
      settings,
      rounds,
      figures,
      floor,
      gzip,
      profiles,
    };
    report.writeSection(sectionBody(run));
    console.log(`wrote the "Merchant API" section of ${report.DOC}`);
  } finally {
    if (servers) await stopAll(servers);
    await db.drop();
    floorApp.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
