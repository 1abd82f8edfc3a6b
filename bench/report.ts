// The figures of `npm run bench:api`: medians over rounds, the next/bare ratio, the aims, and the
// "Merchant API" section of docs/benchmarks.md (the other sections of that file are left alone).
import fs from 'node:fs';
import { CONNECTIONS, type Measured, type RunResult, type Scenario } from './load';
import type { ProfileSummary } from './profile';
import type { ServerKind } from './setup';

export const DOC = 'docs/benchmarks.md';
export const SECTION_HEADING = '## Merchant API (npm run bench:api)';

export const SCENARIO_LABEL: Record<Scenario, string> = {
  create: 'POST /merchants/subscription-link',
  status: 'GET /merchants/plans/{id}/status',
  usage: 'POST /merchants/subscription-plans/{id}/usage',
  'usage-batch': 'POST /merchants/usage-reports',
  floor: 'GET /merchants/plans/{id}/status without credentials (401)',
};

/**
 * The aims, against the framework floor (bench/floor-app.ts: a trivial Next.js route handler
 * answering 401, same Node, same run): our 401 path, status and creation as shares of its req/s.
 * The p99 figures below are reported, no longer aims (Little's law: see the section's note).
 */
export const AIMS = { floorShare: { floor: 0.9, status: 0.75, create: 0.5 } satisfies Record<Exclude<Scenario, 'usage' | 'usage-batch'>, number>, p99Ms: { create: 50, status: 20 } satisfies Record<Measured, number> };

export interface Round {
  scenario: Measured;
  round: number;
  next: RunResult;
  bare: RunResult;
  /** The floor app's 401 in the same round. */
  floor: RunResult;
}

/** One round of the 401 path: our app and the floor app, no credentials, adjacent runs. */
export interface FloorRound {
  round: number;
  next: RunResult;
  floor: RunResult;
}

interface ServerFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Server process CPU per request, ms (NaN when unknown). */
  cpuMs: number;
  /** PostgreSQL's CPU per request (all its processes), ms (NaN when unknown). */
  dbCpuMs: number;
}

/** One run per server at a fixed rate (half of next's flat-out throughput). */
export interface Paced {
  scenario: Measured;
  rate: number;
  next: RunResult;
  bare: RunResult;
}

export interface ScenarioFigures {
  scenario: Measured;
  next: ServerFigures;
  bare: ServerFigures;
  /** Median of the per-round next/bare throughput ratios (each round pairs adjacent runs). */
  ratio: number;
  floor: ServerFigures;
  /** Median of the per-round next / floor-app throughput ratios. */
  floorRatio: number;
  aims: { floor: boolean; p99: boolean };
  paced?: Paced;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function figuresOf(rounds: Round[], scenario: Measured, paced: Paced[] = []): ScenarioFigures {
  const mine = rounds.filter((r) => r.scenario === scenario);
  const of = (kind: ServerKind): ServerFigures => ({
    rps: median(mine.map((r) => r[kind].rps)),
    p50: median(mine.map((r) => r[kind].p50)),
    p99: median(mine.map((r) => r[kind].p99)),
    cpuMs: median(mine.map((r) => r[kind].serverCpuMs ?? NaN)),
    dbCpuMs: median(mine.map((r) => r[kind].dbCpuMs ?? NaN)),
  });
  const next = of('next');
  const ratio = median(mine.map((r) => r.next.rps / r.bare.rps));
  const floorRatio = median(mine.map((r) => r.next.rps / r.floor.rps));
  return {
    scenario,
    next,
    bare: of('bare'),
    ratio,
    floor: of('floor'),
    floorRatio,
    aims: { floor: floorRatio >= AIMS.floorShare[scenario], p99: next.p99 < AIMS.p99Ms[scenario] },
    paced: paced.find((p) => p.scenario === scenario),
  };
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => x.toFixed(1);
const pct = (x: number) => `${Math.round(x * 100)} %`;
const yes = (ok: boolean) => (ok ? 'met' : '**missed**');
const share = (x: number | undefined) => (x === undefined ? '?' : pct(x));
const cpuMs = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '?' : x.toFixed(2));

export function figuresTable(figures: ScenarioFigures[]): string {
  const lines = [
    '| endpoint | server | req/s | p50 ms | p99 ms | ours / floor app req/s | ours / bare req/s | server CPU ms/request | database CPU ms/request |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const f of figures) {
    lines.push(
      `| ${SCENARIO_LABEL[f.scenario]} | next start (ours) | ${n0(f.next.rps)} | ${ms(f.next.p50)} | ${ms(f.next.p99)} | **${pct(f.floorRatio)}** | ${pct(f.ratio)} | ${cpuMs(f.next.cpuMs)} | ${cpuMs(f.next.dbCpuMs)} |`,
    );
    lines.push(`| | floor app (401, same rounds) | ${n0(f.floor.rps)} | ${ms(f.floor.p50)} | ${ms(f.floor.p99)} | | | ${cpuMs(f.floor.cpuMs)} | ${cpuMs(f.floor.dbCpuMs)} |`);
    lines.push(`| | bare node:http | ${n0(f.bare.rps)} | ${ms(f.bare.p50)} | ${ms(f.bare.p99)} | | | ${cpuMs(f.bare.cpuMs)} | ${cpuMs(f.bare.dbCpuMs)} |`);
  }
  return lines.join('\n');
}

export function roundsTable(rounds: Round[]): string {
  const lines = [
    '| endpoint | round | next req/s | p50 | p99 | bare req/s | p50 | p99 | floor app req/s | ours/floor | ours/bare | unexpected + errors | server CPU ms/req next / bare | database CPU ms/req next / bare | other CPU next / bare |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rounds) {
    const bad = r.next.unexpected + r.next.errors + r.bare.unexpected + r.bare.errors + r.floor.unexpected + r.floor.errors;
    lines.push(
      `| ${r.scenario} | ${r.round} | ${n0(r.next.rps)} | ${ms(r.next.p50)} | ${ms(r.next.p99)} | ` +
        `${n0(r.bare.rps)} | ${ms(r.bare.p50)} | ${ms(r.bare.p99)} | ${n0(r.floor.rps)} | ${pct(r.next.rps / r.floor.rps)} | ${pct(r.next.rps / r.bare.rps)} | ${bad} | ` +
        `${cpuMs(r.next.serverCpuMs)} / ${cpuMs(r.bare.serverCpuMs)} | ${cpuMs(r.next.dbCpuMs)} / ${cpuMs(r.bare.dbCpuMs)} | ${share(r.next.otherCpu)} / ${share(r.bare.otherCpu)} |`,
    );
  }
  return lines.join('\n');
}

/** Median share of the CPU other processes took during the measured runs. */
export function otherCpuMedian(rounds: Round[]): number | undefined {
  const shares = rounds.flatMap((r) => [r.next.otherCpu, r.bare.otherCpu]).filter((x): x is number => x !== undefined);
  return shares.length ? median(shares) : undefined;
}

export function pacedTable(figures: ScenarioFigures[]): string {
  const lines = ['| endpoint | rate | next p50 ms | next p99 ms | bare p50 ms | bare p99 ms |', '|---|---:|---:|---:|---:|---:|'];
  for (const { scenario, paced: p } of figures) {
    if (!p) continue;
    lines.push(`| ${SCENARIO_LABEL[scenario]} | ${n0(p.rate)}/s | ${ms(p.next.p50)} | ${ms(p.next.p99)} | ${ms(p.bare.p50)} | ${ms(p.bare.p99)} |`);
  }
  return lines.join('\n');
}

export interface FloorFigures {
  rounds: FloorRound[];
  /** One run of the bare server's 401, for scale. */
  bare: RunResult;
  next: ServerFigures;
  floor: ServerFigures;
  ratio: number;
  met: boolean;
}

export function floorFiguresOf(rounds: FloorRound[], bare: RunResult): FloorFigures {
  const of = (kind: 'next' | 'floor'): ServerFigures => ({
    rps: median(rounds.map((r) => r[kind].rps)),
    p50: median(rounds.map((r) => r[kind].p50)),
    p99: median(rounds.map((r) => r[kind].p99)),
    cpuMs: median(rounds.map((r) => r[kind].serverCpuMs ?? NaN)),
    dbCpuMs: median(rounds.map((r) => r[kind].dbCpuMs ?? NaN)),
  });
  const ratio = median(rounds.map((r) => r.next.rps / r.floor.rps));
  return { rounds, bare, next: of('next'), floor: of('floor'), ratio, met: ratio >= AIMS.floorShare.floor };
}

/** The plumbing alone: a 401 before any database work, ours against the floor app (and bare node:http for scale). */
export function floorTable(f: FloorFigures): string {
  return [
    '| server | req/s | p50 ms | p99 ms | server CPU ms/request | database CPU ms/request | per round (req/s, ours / floor) |',
    '|---|---:|---:|---:|---:|---:|---|',
    `| next start (ours) | ${n0(f.next.rps)} | ${ms(f.next.p50)} | ${ms(f.next.p99)} | ${cpuMs(f.next.cpuMs)} | ${cpuMs(f.next.dbCpuMs)} | ${f.rounds.map((r) => `${n0(r.next.rps)} / ${n0(r.floor.rps)}`).join(', ')} |`,
    `| floor app | ${n0(f.floor.rps)} | ${ms(f.floor.p50)} | ${ms(f.floor.p99)} | ${cpuMs(f.floor.cpuMs)} | ${cpuMs(f.floor.dbCpuMs)} | |`,
    `| bare node:http | ${n0(f.bare.rps)} | ${ms(f.bare.p50)} | ${ms(f.bare.p99)} | ${cpuMs(f.bare.serverCpuMs)} | ${cpuMs(f.bare.dbCpuMs)} | |`,
  ].join('\n');
}

export function aimsList(figures: ScenarioFigures[]): string {
  return figures
    .flatMap((f) => {
      const aim = AIMS.p99Ms[f.scenario];
      const paced = f.paced
        ? ` At ${n0(f.paced.rate)} req/s (half that throughput) next's p99 is ${ms(f.paced.next.p99)} ms: ${f.paced.next.p99 < aim ? 'under' : 'over'} ${aim} ms.`
        : '';
      return [
        `- ${f.scenario}: throughput ${pct(f.floorRatio)} of the floor app's 401 (aim ≥ ${pct(AIMS.floorShare[f.scenario])}): ${yes(f.aims.floor)}; ${pct(f.ratio)} of bare node:http doing the same work.`,
        `- ${f.scenario}: p99 ${ms(f.next.p99)} ms flat out at ${CONNECTIONS} connections (the former aim, < ${aim} ms: ${f.aims.p99 ? 'under' : 'over'}).${paced}`,
      ];
    })
    .join('\n');
}

export function profileTable(title: string, summary: ProfileSummary, requests: number): string {
  const perReq = (msTotal: number) => ((msTotal * 1000) / Math.max(1, requests)).toFixed(0);
  const owners = summary.byOwner.filter((o) => o.owner !== '(idle)').slice(0, 8);
  const ours = summary.functions.filter((f) => f.owner === 'ours').slice(0, 12);
  return [
    `**${title}**: ${n0(requests)} requests, ${n0(summary.busyMs)} ms of CPU, ${perReq(summary.busyMs)} µs per request.`,
    '',
    '| self time by owner | ms | µs/request | share of CPU |',
    '|---|---:|---:|---:|',
    ...owners.map((o) => `| ${o.owner} | ${n0(o.selfMs)} | ${perReq(o.selfMs)} | ${pct(o.selfMs / summary.busyMs)} |`),
    '',
    '| our functions, by self time | where | ms |',
    '|---|---|---:|',
    ...ours.map((f) => `| \`${f.name}\` | ${f.where} | ${f.selfMs.toFixed(1)} |`),
  ].join('\n');
}

/** Replaces one bench's section of docs/benchmarks.md (by its heading), keeping every other section. */
export function writeSection(body: string, heading: string = SECTION_HEADING): void {
  const section = `${heading}\n\n${body.trim()}\n`;
  const existing = fs.existsSync(DOC)
    ? fs.readFileSync(DOC, 'utf8')
    : '# Benchmarks\n\nEach section is written by the script named in its heading; rerun it to refresh the figures.\n';
  const start = existing.indexOf(`${heading}\n`);
  let text: string;
  if (start < 0) {
    text = `${existing.trimEnd()}\n\n${section}`;
  } else {
    const after = existing.slice(start + heading.length);
    const nextHeading = after.search(/\n## /);
    text = existing.slice(0, start) + section + (nextHeading < 0 ? '' : `\n${after.slice(nextHeading + 1)}`);
  }
  fs.mkdirSync('docs', { recursive: true });
  fs.writeFileSync(DOC, text);
}
