// npm run bench:compare: other builds of this app against this checkout's, and against the floor
// app (bench/floor-app.ts), on one endpoint. It answers "does this change cost or save?" for
// changes smaller than bench:api's rounds can resolve (docs/benchmarks.md, "where the rest of the
// 401 gap is"): every server runs for the whole comparison and they are loaded one after another in
// rotating order, so drift on a noisy machine reaches all of them; each round's CPU per request is
// divided by this checkout's in the same round, and the medians of those ratios are reported.
// Each directory is a checkout with its own production build (`npm run build` in it). Nothing is
// written to docs/; traffic goes to 127.0.0.1 only. Two processes of one build differed by 7–13 %
// here: give this checkout's own path as a checkout too, as a control, before believing a smaller
// difference.
//
//   npx tsx bench/compare.ts [--scenario floor|status|create] [--rounds 10] [--seconds 4] <checkout>...
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { processCpuMs } from './cpu';
import { buildFloorApp } from './floor-app';
import { CONNECTIONS, Rotation, runLoad, type Scenario, wrongRun } from './load';
import { median } from './report';
import { apiServerEnv, createScratchDatabase, ensureBuild, freePort, type RunningServer, seedMerchants, startServer, wholeNumbers } from './setup';

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

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

async function main() {
  ensureBuild();
  for (const dir of checkouts) {
    if (!fs.existsSync(path.join(dir, '.next', 'BUILD_ID'))) throw new Error(`${dir} has no production build: run npm run build in it`);
  }
  const floorApp = buildFloorApp();
  const db = await createScratchDatabase();
  const contenders: Contender[] = [];
  try {
    const merchants = await seedMerchants(db.url, settings.merchants);
    const builds: { label: string; kind: 'next' | 'floor'; dir?: string }[] = [
      { label: 'this checkout', kind: 'next' },
      ...checkouts.map((dir) => ({ label: dir, kind: 'next' as const, dir: path.resolve(dir) })),
      { label: 'floor app', kind: 'floor' },
    ];
    // Started last first, the floor app before ours: a server started first tends to run cheaper
    // (docs/benchmarks.md, "the order the servers start in"), and that edge goes to the reference.
    for (const build of [...builds].reverse()) {
      const port = await freePort();
      const server = await startServer(build.kind, { port, env: apiServerEnv(db.url, `http://127.0.0.1:${port}`), appDir: build.dir, floorDir: floorApp.dir });
      contenders.unshift({ label: build.label, server, rotation: new Rotation(merchants, build.label), cpuMs: [], rps: [] });
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
    await db.drop();
    floorApp.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
