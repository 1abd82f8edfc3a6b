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
  floor: 'GET /merchants/plans/{id}/status without credentials (401)',
};

/** The aims: next at least 60 % of bare's throughput; p99 under these on this machine. */
export const AIMS = { minRatio: 0.6, p99Ms: { create: 50, status: 20 } satisfies Record<Measured, number> };

export interface Round {
  scenario: Measured;
  round: number;
  next: RunResult;
  bare: RunResult;
}

interface ServerFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Server process CPU per request, ms (NaN when unknown). */
  cpuMs: number;
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
  aims: { ratio: boolean; p99: boolean };
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
  });
  const next = of('next');
  const ratio = median(mine.map((r) => r.next.rps / r.bare.rps));
  return {
    scenario,
    next,
    bare: of('bare'),
    ratio,
    aims: { ratio: ratio >= AIMS.minRatio, p99: next.p99 < AIMS.p99Ms[scenario] },
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
    '| endpoint | server | req/s | p50 ms | p99 ms | next/bare req/s | server CPU ms/request | bare/next CPU per request |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const f of figures) {
    const cpuRatio = Number.isNaN(f.next.cpuMs) ? '?' : pct(f.bare.cpuMs / f.next.cpuMs);
    lines.push(
      `| ${SCENARIO_LABEL[f.scenario]} | next start | ${n0(f.next.rps)} | ${ms(f.next.p50)} | ${ms(f.next.p99)} | **${pct(f.ratio)}** | ${cpuMs(f.next.cpuMs)} | ${cpuRatio} |`,
    );
    lines.push(`| | bare node:http | ${n0(f.bare.rps)} | ${ms(f.bare.p50)} | ${ms(f.bare.p99)} | | ${cpuMs(f.bare.cpuMs)} | |`);
  }
  return lines.join('\n');
}

export function roundsTable(rounds: Round[]): string {
  const lines = [
    '| endpoint | round | next req/s | p50 | p99 | bare req/s | p50 | p99 | ratio | unexpected + errors | server CPU ms/req next / bare | other CPU next / bare |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rounds) {
    const bad = r.next.unexpected + r.next.errors + r.bare.unexpected + r.bare.errors;
    lines.push(
      `| ${r.scenario} | ${r.round} | ${n0(r.next.rps)} | ${ms(r.next.p50)} | ${ms(r.next.p99)} | ` +
        `${n0(r.bare.rps)} | ${ms(r.bare.p50)} | ${ms(r.bare.p99)} | ${pct(r.next.rps / r.bare.rps)} | ${bad} | ` +
        `${cpuMs(r.next.serverCpuMs)} / ${cpuMs(r.bare.serverCpuMs)} | ${share(r.next.otherCpu)} / ${share(r.bare.otherCpu)} |`,
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

/** The plumbing alone: a 401 from the route wrapper, before any database work. */
export function floorTable(floor: Record<ServerKind, RunResult>): string {
  return [
    '| server | req/s | p50 ms | p99 ms | server CPU ms/request |',
    '|---|---:|---:|---:|---:|',
    `| next start | ${n0(floor.next.rps)} | ${ms(floor.next.p50)} | ${ms(floor.next.p99)} | ${cpuMs(floor.next.serverCpuMs)} |`,
    `| bare node:http | ${n0(floor.bare.rps)} | ${ms(floor.bare.p50)} | ${ms(floor.bare.p99)} | ${cpuMs(floor.bare.serverCpuMs)} |`,
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
        `- ${f.scenario}: throughput ${pct(f.ratio)} of bare (aim ≥ ${pct(AIMS.minRatio)}): ${yes(f.aims.ratio)}.`,
        `- ${f.scenario}: p99 ${ms(f.next.p99)} ms flat out at ${CONNECTIONS} connections (aim < ${aim} ms): ${yes(f.aims.p99)}.${paced}`,
      ];
    })
    .join('\n');
}

export function profileTable(title: string, summary: ProfileSummary, requests: number): string {
  const perReq = (msTotal: number) => ((msTotal * 1000) / Math.max(1, requests)).toFixed(0);
  const owners = summary.byOwner.filter((o) => o.owner !== '(idle)').slice(0, 8);
  const ours = summary.functions.filter((f) => f.owner === 'ours').slice(0, 8);
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
