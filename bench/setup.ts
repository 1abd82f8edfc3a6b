// What `npm run bench:api` needs around the load: a current production build, a scratch
// PostgreSQL database migrated by `npm run db:migrate`, merchants with keys and plans made by the
// app's own code, and the two servers as child processes on 127.0.0.1.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { openPostgres } from '@/db/client';
import { createMerchant } from '@/lib/merchants/merchants';
import { resetEnvForTests } from '@/lib/env';
import { createPaymentLink } from '@/lib/plans/create-link';
export { ensureBuild } from '@/scripts/build-if-stale';

// The local server only: the bench sends nothing anywhere but 127.0.0.1.
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  name: string;
  url: string;
  serverVersion: string;
  /** VACUUM ANALYZE of the whole database, waited for. */
  vacuum(): Promise<void>;
  drop(): Promise<void>;
}

/** A fresh database on the local server, migrated the way a deployment is. */
/** Drops a scratch database by name (bench/compare.ts also drops those an older checkout's own set-up made). */
export async function dropScratchDatabase(name: string): Promise<void> {
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  const name = `servicepay_bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const [version] = await admin<{ server_version: string }[]>`show server_version`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.end();
    await dropScratchDatabase(name);
  };
  const migrated = spawnSync('npm', ['run', '--silent', 'db:migrate'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATABASE_URL: url.href },
  });
  if (migrated.status !== 0) {
    await drop();
    throw new Error('npm run db:migrate failed on the scratch database');
  }
  const vacuum = async () => {
    const client = postgres(url.href, { max: 1, onnotice: () => {} });
    try {
      await client.unsafe('vacuum analyze');
    } finally {
      await client.end();
    }
  };
  return { name, url: url.href, serverVersion: version?.server_version ?? 'unknown', vacuum, drop };
}

export interface BenchMerchant {
  authorization: string;
  /** A plan of this merchant, for the status endpoint. */
  planId: string;
}

/**
 * Runs `seed` with this process's settings as a production deployment's, so createMerchant issues
 * the live keys the measured servers (NODE_ENV=production) accept; a test key would be a 401.
 */
export async function asProduction<T>(seed: () => Promise<T>): Promise<T> {
  const vars = process.env as Record<string, string | undefined>;
  const saved = { NODE_ENV: vars.NODE_ENV, BETTER_AUTH_SECRET: vars.BETTER_AUTH_SECRET, SANDBOX_DEPLOYMENT: vars.SANDBOX_DEPLOYMENT };
  Object.assign(vars, { NODE_ENV: 'production', BETTER_AUTH_SECRET: randomBytes(24).toString('hex'), SANDBOX_DEPLOYMENT: '' });
  resetEnvForTests();
  try {
    return await seed();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete vars[name];
      else vars[name] = value;
    }
    resetEnvForTests();
  }
}

/** `count` merchants through createMerchant, each with one pending plan made by createPaymentLink. */
export function seedMerchants(url: string, count: number): Promise<BenchMerchant[]> {
  return asProduction(() => seedPending(url, count));
}

async function seedPending(url: string, count: number): Promise<BenchMerchant[]> {
  const database = await openPostgres(url, { max: 20 });
  const merchants: BenchMerchant[] = [];
  try {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const m = await createMerchant(database.db, { name: `Bench ${i}` });
        const link = await database.db.transaction((tx) =>
          createPaymentLink(tx, m.merchantId, {
            customer: { phone: '+573001234567', email: 'ana@example.com' },
            plan: { externalReference: `seed-${i}`, description: 'Plan mensual', amount: 150000, modality: 'RECURRING' },
          }),
        );
        merchants[i] = { authorization: `Bearer ${m.apiKey}:${m.apiSecret}`, planId: link.subscriptionPlanId };
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
  } finally {
    await database.close();
  }
  return merchants;
}

/** The named options of parseArgs as whole numbers above 0; throws naming the first that is not one. */
export function wholeNumbers<K extends string>(values: Partial<Record<K, unknown>>, names: readonly K[]): Record<K, number> {
  const numbers = {} as Record<K, number>;
  for (const name of names) {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} is a whole number above 0`);
    numbers[name] = value;
  }
  return numbers;
}

/** A port free on 127.0.0.1 now (the bench listens on nothing else). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The environment of a measured server: production, on `databaseUrl`, with fresh secrets. */
export function apiServerEnv(databaseUrl: string, appUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    ADMIN_API_TOKEN: randomBytes(24).toString('hex'),
    BETTER_AUTH_SECRET: randomBytes(24).toString('hex'),
    APP_URL: appUrl,
    // The in-process rate limiter (docs/api.md#rate-limits: Upstash unset).
    UPSTASH_REDIS_REST_URL: '',
    UPSTASH_REDIS_REST_TOKEN: '',
  };
}

/** Our app under `next start`, the bare node:http server, and the minimal Next.js app of bench/floor-app.ts. */
export type ServerKind = 'next' | 'bare' | 'floor';

export interface RunningServer {
  kind: ServerKind;
  url: string;
  pid: number;
  stderrFile: string;
  stop(): Promise<void>;
}

/**
 * Polls `url` until the server answers as `ready` says (by default anything under 500), every
 * 200 ms for up to `seconds`; a child that exits first fails at once. `logFile` is named in errors.
 */
export async function waitUntilUp(
  url: string,
  child: ChildProcess,
  logFile: string,
  { seconds = 60, ready = (status: number) => status < 500 }: { seconds?: number; ready?: (status: number) => boolean } = {},
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}); see ${logFile}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (ready(res.status)) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server at ${url} did not come up in ${seconds} s; see ${logFile}`);
}

/**
 * Starts `next start` or the bare server on 127.0.0.1. Its stdout (the app's one JSON log line per
 * request) goes to /dev/null: the logging cost stays, no pipe can back up. stderr goes to a file.
 */
export async function startServer(
  kind: ServerKind,
  options: {
    port: number;
    env: Record<string, string>;
    cpuProfileDir?: string;
    floorDir?: string;
    /** Another checkout whose production build `next start` serves (bench:widget's baseline). */
    appDir?: string;
  },
): Promise<RunningServer> {
  const nodeArgs = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const nextStart = [path.resolve('node_modules/next/dist/bin/next'), 'start', '-p', String(options.port), '-H', '127.0.0.1'];
  const args = kind === 'bare' ? [...nodeArgs, '--import', 'tsx', 'bench/bare-server.ts'] : [...nodeArgs, ...nextStart];
  if (kind === 'floor' && !options.floorDir) throw new Error('the floor server needs the floor app (bench/floor-app.ts)');
  const stderrFile = path.join(os.tmpdir(), `servicepay-bench-${kind}-${process.pid}-${options.port}.stderr.log`);
  const stdout = fs.openSync('/dev/null', 'w');
  const stderr = fs.openSync(stderrFile, 'w');
  const child = spawn(process.execPath, args, {
    cwd: kind === 'floor' ? options.floorDir : options.appDir,
    env: { ...process.env, ...options.env, PORT: String(options.port) },
    stdio: ['ignore', stdout, stderr],
  });
  fs.closeSync(stdout);
  fs.closeSync(stderr);
  const url = `http://127.0.0.1:${options.port}`;
  // SIGTERM lets both servers exit cleanly (and write a CPU profile); SIGKILL if one hangs.
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  try {
    await waitUntilUp(kind === 'next' ? `${url}/api/health` : kind === 'floor' ? `${url}/merchants/plans/x/status` : url, child, stderrFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { kind, url, pid: child.pid!, stderrFile, stop };
}
