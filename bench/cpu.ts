// How much of the machine went to something else during a run: the CPU that neither the bench, the
// server under load nor PostgreSQL used. Read from /proc (Linux); elsewhere it is unknown.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface CpuSample {
  /** Jiffies of every CPU, all states. */
  total: number;
  busy: number;
  /** Jiffies used so far by each process of ours (the given pids and every postgres process). */
  ours: Map<string, number>;
}

function procStatTimes(pid: number | string): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function postgresPids(): string[] {
  return fs.readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
}

/** Jiffies used so far by each PostgreSQL process (every database's: the server may be shared). */
export function samplePostgres(): Map<string, number> {
  try {
    return new Map(postgresPids().map((pid) => [pid, procStatTimes(pid)]));
  } catch {
    return new Map();
  }
}

export function sampleCpu(pids: number[]): CpuSample | undefined {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = cpu;
    const ours = new Map([...pids.map((pid): [string, number] => [String(pid), procStatTimes(pid)]), ...samplePostgres()]);
    return { total: user + nice + system + idle + iowait + irq + softirq + steal, busy: user + nice + system + irq + softirq + steal, ours };
  } catch {
    return undefined;
  }
}

/** Share of the machine's CPU used by other processes between two samples (0..1), if known. */
export function foreignShare(before: CpuSample | undefined, after: CpuSample | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  // A process started in between (a new PostgreSQL backend) used all its time in between.
  let ours = 0;
  for (const [pid, jiffies] of after.ours) ours += jiffies - (before.ours.get(pid) ?? 0);
  const foreign = after.busy - before.busy - ours;
  return Math.max(0, foreign / (after.total - before.total));
}

let ticksPerSecond: number | undefined;

function jiffiesToMs(jiffies: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return (jiffies * 1000) / ticksPerSecond;
}

/** CPU time (user + system) a process has used so far, in ms, if known. */
export function processCpuMs(pid: number): number | undefined {
  if (!fs.existsSync(`/proc/${pid}/stat`)) return undefined;
  return jiffiesToMs(procStatTimes(pid));
}

/**
 * CPU time (user + system) PostgreSQL's processes used between two samples, in ms, or undefined
 * when none was found. A process started in between used all its time in between; one that ended
 * in between is lost.
 */
export function postgresCpuMsBetween(before: Map<string, number>, after: Map<string, number>): number | undefined {
  if (!after.size) return undefined;
  let jiffies = 0;
  for (const [pid, used] of after) jiffies += used - (before.get(pid) ?? 0);
  return jiffiesToMs(jiffies);
}
