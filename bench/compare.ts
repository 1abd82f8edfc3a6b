// npm run bench:compare: other builds of this app against this checkout's, and against the floor
// app (bench/floor-app.ts), on one endpoint. It answers "does this change cost or save?" for
// changes smaller than bench:api's rounds can resolve (docs/benchmarks.md, "where the rest of the
// 401 gap is"): every server runs for the whole comparison and they are loaded one after another in
// rotating order, so drift on a noisy machine reaches all of them; each round's CPU per request is
// divided by this checkout's in the same round, and the medians of those ratios are reported.
// Each directory is a checkout with its own production build (`npm run build` in it). Nothing is
// written to docs/; traffic goes to 127.0.0.1 only. Two processes of one build differed by 7–13 %
// here: give this checkout's own path as a checkout too, as a control, before believing a smaller
// difference. A checkout whose migrations differ from this one's (an older commit's schema) runs on a
// database of its own, migrated and seeded by its own code to the same size (seedInCheckout).
//
//   npx tsx bench/compare.ts [--scenario floor|status|create] [--rounds 10] [--seconds 4] <checkout>...
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { processCpuMs } from './cpu';
import { buildFloorApp } from './floor-app';
import { CONNECTIONS, Rotation, runLoad, type Scenario, wrongRun } from './load';
import { median } from './report';
import { apiServerEnv, type BenchMerchant, createScratchDatabase, dropScratchDatabase, ensureBuild, freePort, type RunningServer, seedMerchants, startServer, wholeNumbers } from './setup';

const { values: args, positionals: checkouts } = parseArgs({
  allowPositionals: true,
  options: {
    // `floor` is the 401 of the status route without credentials; the floor app answers it always.
    scenario: { type: 'string', default: 'floor' },
    rounds: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '4' },
    'warmup-seconds': { type: 'string', default: '8' },
    merchants: { type: 'string', default: '3000' },
  },
});

const counts = wholeNumbers(args, ['rounds', 'seconds', 'warmup-seconds', 'merchants']);
const settings = {
  scenario: args.scenario as Scenario,
  rounds: counts.rounds,
  seconds: counts.seconds,
  warmupSeconds: counts['warmup-seconds'],
  merchants: counts.merchants,
};
if (!['floor', 'status', 'create'].includes(settings.scenario)) throw new Error('--scenario is floor (the 401 path), status or create');

interface Contender {
  label: string;
  server: RunningServer;
  rotation: Rotation;
  cpuMs: number[];
  rps: number[];
}

/** One run of `seconds` on `c`: its req/s and CPU per request; any other answer stops the comparison. */
async function load(c: Contender, seconds: number): Promise<{ rps: number; cpuMs: number }> {
  const scenario = c.server.kind === 'floor' ? 'floor' : settings.scenario;
  const before = processCpuMs(c.server.pid);
  const r = await runLoad({ url: c.server.url, scenario, rotation: c.rotation, seconds });
  const after = processCpuMs(c.server.pid);
  const wrong = wrongRun(scenario, r, settings.merchants);
  if (wrong) throw new Error(`${c.label}: ${wrong}`);
  if (before === undefined || after === undefined) throw new Error(`${c.label}: its CPU time could not be read from /proc`);
  return { rps: r.rps, cpuMs: (after - before) / r.requests };
}

/** A checkout's migrations, names and bytes: two checkouts that agree can share one database. */
function migrationsOf(dir: string): string {
  const folder = path.join(dir, 'db', 'migrations');
  const files = fs.readdirSync(folder).filter((f) => f.endsWith('.sql')).sort();
  return files.map((f) => `${f}\n${fs.readFileSync(path.join(folder, f), 'utf8')}`).join('\n');
}

interface OwnDatabase {
  name: string;
  url: string;
  merchants: BenchMerchant[];
}

/**
 * A scratch database for a checkout with other migrations (this checkout's schema would break its
 * queries): made, migrated and seeded with `count` merchants by that checkout's own bench/setup.ts,
 * run by tsx in its directory, so its rows are the ones its code writes. Its name goes into
 * `created` as soon as it exists, for dropScratchDatabase.
 */
function seedInCheckout(dir: string, count: number, created: string[]): OwnDatabase {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-compare-'));
  const script = path.join(scratch, 'seed.mts');
  const answer = path.join(scratch, 'seeded.json');
  const setup = pathToFileURL(path.join(dir, 'bench', 'setup.ts')).href;
  fs.writeFileSync(
    script,
    [
      "import fs from 'node:fs';",
      `const { createScratchDatabase, seedMerchants } = await import(${JSON.stringify(setup)});`,
      'const db = await createScratchDatabase();',
      // Written first, so that the database is dropped even if seeding fails.
      `fs.writeFileSync(${JSON.stringify(answer)}, JSON.stringify({ name: db.name, url: db.url, merchants: [] }));`,
      `const merchants = await seedMerchants(db.url, ${count});`,
      `fs.writeFileSync(${JSON.stringify(answer)}, JSON.stringify({ name: db.name, url: db.url, merchants }));`,
      'process.exit(0);',
    ].join('\n'),
  );
  try {
    const run = spawnSync('npx', ['tsx', script], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
    const seeded = fs.existsSync(answer) ? (JSON.parse(fs.readFileSync(answer, 'utf8')) as OwnDatabase) : undefined;
    if (seeded) created.push(seeded.name);
    if (run.status !== 0 || !seeded || seeded.merchants.length !== count) throw new Error(`${dir}: seeding its own database failed`);
    return seeded;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

async function main() {
  ensureBuild();
  for (const dir of checkouts) {
    if (!fs.existsSync(path.join(dir, '.next', 'BUILD_ID'))) throw new Error(`${dir} has no production build: run npm run build in it`);
  }
  const floorApp = buildFloorApp();
  const db = await createScratchDatabase();
  const contenders: Contender[] = [];
  const ownDatabases: string[] = [];
  try {
    const merchants = await seedMerchants(db.url, settings.merchants);
    const ours = migrationsOf('.');
    const builds: { label: string; kind: 'next' | 'floor'; dir?: string; database: { url: string; merchants: BenchMerchant[] } }[] = [
      { label: 'this checkout', kind: 'next', database: { url: db.url, merchants } },
      ...checkouts.map((dir) => {
        const own = migrationsOf(dir) === ours ? undefined : seedInCheckout(path.resolve(dir), settings.merchants, ownDatabases);
        if (own) {
          console.log(`${dir}: other migrations than this checkout's, so a database of its own (${own.name}), seeded by its code`);
        }
        return { label: dir, kind: 'next' as const, dir: path.resolve(dir), database: own ?? { url: db.url, merchants } };
      }),
      { label: 'floor app', kind: 'floor', database: { url: db.url, merchants } },
    ];
    // Started last first, the floor app before ours: a server started first tends to run cheaper
    // (docs/benchmarks.md, "the order the servers start in"), and that edge goes to the reference.
    for (const build of [...builds].reverse()) {
      const port = await freePort();
      const server = await startServer(build.kind, { port, env: apiServerEnv(build.database.url, `http://127.0.0.1:${port}`), appDir: build.dir, floorDir: floorApp.dir });
      contenders.unshift({ label: build.label, server, rotation: new Rotation(build.database.merchants, build.label), cpuMs: [], rps: [] });
    }
    console.log(`${settings.scenario} on ${contenders.length} servers, ${CONNECTIONS} connections: a ${settings.warmupSeconds} s warm-up each, then ${settings.rounds} rounds of ${settings.seconds} s`);
    for (const c of contenders) await load(c, settings.warmupSeconds);
    for (let round = 0; round < settings.rounds; round++) {
      const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
      for (const c of order) {
        const { rps, cpuMs } = await load(c, settings.seconds);
        c.rps.push(rps);
        c.cpuMs.push(cpuMs);
      }
      console.log(`round ${round + 1}: ${contenders.map((c) => `${c.label} ${c.rps.at(-1)!.toFixed(0)} req/s ${c.cpuMs.at(-1)!.toFixed(3)} ms`).join(' · ')}`);
    }
    const base = contenders[0]!;
    const against = (c: Contender, of: 'cpuMs' | 'rps') => median(c[of].map((value, i) => value / base[of][i]!));
    console.log(
      [
        '',
        '| build | req/s | CPU ms/request | CPU per request, against this checkout | req/s, against this checkout |',
        '|---|---:|---:|---:|---:|',
        ...contenders.map((c) => `| ${c.label} | ${median(c.rps).toFixed(0)} | ${median(c.cpuMs).toFixed(3)} | ${pct(against(c, 'cpuMs'))} | ${pct(against(c, 'rps'))} |`),
      ].join('\n'),
    );
  } finally {
    for (const c of contenders) await c.server.stop();
    for (const name of ownDatabases) await dropScratchDatabase(name);
    await db.drop();
    floorApp.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
