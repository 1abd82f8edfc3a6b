// The text of the "Merchant API" section of docs/benchmarks.md: how the figures were taken, the
// figures, and what they say, every sentence computed from this run so a rerun keeps it true.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONNECTIONS } from './load';
import { LEAD_IN_SECONDS } from './paced';
import type { ProfileSummary } from './profile';
import * as report from './report';
import type { ServerKind } from './setup';

export interface BenchRun {
  date: string;
  totalSeconds: number;
  built: boolean;
  args: string[];
  loadAverage: { start: number; end: number };
  postgresVersion: string;
  settings: { rounds: number; seconds: number; warmupSeconds: number; pacedSeconds: number; floorSeconds: number; profileSeconds: number; merchants: number };
  rounds: report.Round[];
  figures: report.ScenarioFigures[];
  floor: report.FloorFigures;
  /** The 401 path again, every request accepting gzip. */
  gzip: report.FloorFigures;
  profiles: { kind: ServerKind; summary: ProfileSummary; requests: number }[];
}

const versionOf = (pkg: string) =>
  (JSON.parse(fs.readFileSync(path.join('node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '?' : `${Math.round(x * 100)} %`);
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');

function howTaken(run: BenchRun): string[] {
  const { settings: s } = run;
  const cpu = os.cpus();
  return [
    `- Command: \`npm run bench:api${run.args.length ? ` -- ${run.args.join(' ')}` : ''}\`; it runs \`npm run build\` first when \`.next/BUILD_ID\` is missing or older than a source file${run.built ? ' (it did this time)' : ''}.`,
    `- Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}. Load generator, both servers and PostgreSQL share it. ` +
      `Load average ${run.loadAverage.start.toFixed(1)} at the start, ${run.loadAverage.end.toFixed(1)} at the end; other processes took a median ${pct(report.otherCpuMedian(run.rounds))} of the CPU during a run (per run below).`,
    `- Versions: Node ${process.version}, Next.js ${versionOf('next')}, PostgreSQL ${run.postgresVersion}, postgres.js ${versionOf('postgres')}, drizzle-orm ${versionOf('drizzle-orm')}, zod ${versionOf('zod')}, autocannon ${versionOf('autocannon')}.`,
    `- Load: autocannon, ${CONNECTIONS} connections, keep-alive, no pipelining, flat out; per endpoint a ${s.warmupSeconds} s warm-up of each server, then ${s.rounds} round${s.rounds === 1 ? '' : 's'} of ${s.seconds} s per server. Figures are medians over the rounds; the ratio is the median of the per-round next/bare ratios. Latencies are per response as autocannon times them, 2xx only. Server CPU is the server process's user + system time per request (/proc), which other processes disturb less than req/s; database CPU is that of every PostgreSQL process (the same two cores; a round trip costs PostgreSQL CPU too), whichever database it served, so on a shared PostgreSQL it counts other users' queries as well.`,
    `- Servers on 127.0.0.1, all on the same Node: \`next start\` of ours (production build, NODE_ENV=production; its stdout, the one JSON log line per request, goes to /dev/null, so logging is paid but no pipe backs up); the **floor app**, \`next start\` of a minimal Next.js app the bench writes and builds in a temporary folder with the project's own Next.js (bench/floor-app.ts: one route handler at the same path answering the same 401 JSON, no middleware, nothing of ours; not shipped); and \`bench/bare-server.ts\` (node:http, under tsx). Ours and bare use openPostgres's default pool of 10 connections to a scratch database made for the run, migrated by \`npm run db:migrate\`, vacuumed and analyzed after each endpoint's rounds (so autovacuum after the creation rounds does not run during the next ones), dropped at the end.`,
    '- Aims, against the floor app in the same run: our 401 path ≥ 90 % of its req/s, status ≥ 75 %, creation ≥ 50 %. In every round of status and creation the floor app\'s 401 runs too (the three servers take turns going first), and the ratio is the median of the per-round ours/floor ratios; the 401 path has its own rounds, ours and the floor app alternating.',
    '- The bare server calls the functions the routes call: `authenticateMerchant` with the same key cache (lib/auth/key-cache.ts: a key read once, then its secret checked in constant time on every request; last use noted), the in-process rate limiter and its headers, JSON parse + `createLinkBodySchema`, `createPaymentLink`; `findMerchantPlan` + `getPlanWithLastTransaction` + `toPlanStatus`. The ratio prices Next.js with its Web Request/Response layer and `withApi`/`withMerchant` (request id, log line, error mapping); the rate limiter is in both.',
    `- Rate limits on (in-process, as with Upstash unset): requests rotate over ${n0(s.merchants)} merchants made by \`createMerchant\`, one key each, and the bench fails a run whose busiest key passes half its limit. Creation bodies are the example of docs/api.md#create-a-payment-link with a unique externalReference; a status read is of a pending plan of the calling merchant (no transaction yet). Every request of every run got the expected status; a run with a 429 or an error is not written here.`,
  ];
}

function latencyNote(run: BenchRun): string {
  const needed = run.figures
    .map((f) => {
      const aim = report.AIMS.p99Ms[f.scenario];
      return `a ${f.scenario} p99 under ${aim} ms needs more than ${n0((CONNECTIONS * 1000) / aim)} req/s (bare reached ${n0(f.bare.rps)})`;
    })
    .join('; ');
  return (
    `Flat out, ${CONNECTIONS} connections keep ${CONNECTIONS} requests in flight, so the mean latency is ${CONNECTIONS} ÷ req/s (Little's law) and p99 lies above it: ${needed}. ` +
    `Latency at a steady rate, half of next's flat-out throughput and the same for both servers, shows the request path rather than the queue: ${run.settings.pacedSeconds} s each from \`bench/paced.ts\` (open loop, evenly spaced requests over at most ${CONNECTIONS} keep-alive connections, each latency counted from the request's scheduled time, after an untimed ${LEAD_IN_SECONDS} s lead-in at the same rate; autocannon's own rate option sends a second's quota as one burst).`
  );
}

function floorNote(run: BenchRun): string {
  const { next, floor, bare } = run.floor;
  return (
    `The 401 path: GET status without credentials, answered 401 before any database work; a ${run.settings.warmupSeconds} s warm-up of each on it, then ${run.settings.rounds} rounds of ${run.settings.floorSeconds} s, ours and the floor app alternating, then bare node:http once. ` +
    `Ours reached **${pct(run.floor.ratio)} of the floor app** (aim ≥ 90 %: ${run.floor.met ? 'met' : '**missed**'}); per request ours spent ${next.cpuMs.toFixed(2)} ms of CPU against the floor app's ${floor.cpuMs.toFixed(2)} ms ` +
    `and bare node:http's ${(bare.serverCpuMs ?? NaN).toFixed(2)} ms.`
  );
}

function gzipNote(run: BenchRun): string {
  const { next, floor } = run.gzip;
  return (
    'The same 401 path as a client that accepts gzip sends it (`Accept-Encoding: gzip, deflate`, the default of Node\'s fetch, axios and Python\'s requests), the same warm-up and rounds: ' +
    `ours ${n0(next.rps)} req/s at ${next.cpuMs.toFixed(2)} ms of CPU per request, the floor app ${n0(floor.rps)} req/s at ${floor.cpuMs.toFixed(2)} ms (ours ${pct(run.gzip.ratio)} of it). ` +
    'Next.js gzips every route handler\'s reply to such a client, whatever its size (it drops the Content-Length its compression\'s 1 KiB threshold reads); ours marks a reply under 1 KiB `no-transform` and sends it as it is (docs/api.md#conventions).'
  );
}

function profileNotes(run: BenchRun): string[] {
  if (!run.profiles.length) return [];
  const next = run.profiles.find((p) => p.kind === 'next');
  const ours = next?.summary.byOwner.find((o) => o.owner === 'ours')?.selfMs ?? 0;
  return [
    '',
    '### Where the time goes',
    '',
    `Self time from \`node --cpu-prof\` on fresh servers under the same flat-out load (${run.settings.profileSeconds} s per endpoint and server, creation then status; start-up included), Next's chunks mapped to their sources through the build's source maps. ` +
      (next ? `The floor app's profile is the same framework answering the same 401, so what ours spends beyond it on the 401 path is our per-request code. Our own code (app/, lib/, db/; minified names where the source map has none) is ${pct(ours / next.summary.busyMs)} of next's CPU; the rest is Next.js, Node's web streams and fetch classes, drizzle-orm, postgres.js, native code and GC.` : ''),
    '',
    ...run.profiles.flatMap((p) => [report.profileTable(PROFILE_TITLE[p.kind], p.summary, p.requests), '']),
  ];
}

const PROFILE_TITLE: Record<ServerKind, string> = {
  next: 'next start (ours: the 401 path, then creation and status)',
  floor: 'floor app (the 401 path)',
  bare: 'bare node:http (creation and status)',
};

/** The section: its blocks with a blank line between each, then the profiles when there are some. */
export function sectionBody(run: BenchRun): string {
  const blocks = [
    `Taken ${run.date} by \`npm run bench:api\`, ${run.totalSeconds} s in all.`,
    howTaken(run).join('\n'),
    report.figuresTable(run.figures),
    report.aimsList(run.figures),
    latencyNote(run),
    report.pacedTable(run.figures),
    floorNote(run),
    report.floorTable(run.floor),
    gzipNote(run),
    report.floorTable(run.gzip),
    '<details><summary>Every round</summary>',
    report.roundsTable(run.rounds),
    '</details>',
  ];
  return [blocks.join('\n\n'), ...profileNotes(run)].join('\n');
}
