import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { createScratchDatabase, type ScratchDatabase, waitUntilUp } from '@/bench/setup';
import { ADMIN_TOKEN } from '@/test/http';

// The resilience suite's servers: the production build (`next start`, built once by the suite's
// global setup) on 127.0.0.1, on a scratch PostgreSQL database migrated as a deployment is.

export const AUTH_SECRET = 'resilience-only-portal-auth-secret-0123456789';

/** A free loopback port: the kernel picks one, and it is released for the server to take. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface AppServer {
  url: string;
  pid: number;
  /** Where its stdout and stderr go. */
  logFile: string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** kill -9: no shutdown, no flush, in-flight work dies with it. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/** `next start` on a free port with the given settings; its output goes to a log file. */
export async function startApp(env: Record<string, string>, name: string): Promise<AppServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(os.tmpdir(), `servicepay-resilience-${process.pid}-${name}.log`);
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // The sandbox processor and the test clock (POST /admin/billing/run) are what the suite drives.
      SANDBOX_DEPLOYMENT: '1',
      PORT: String(port),
      APP_URL: url,
      ADMIN_API_TOKEN: ADMIN_TOKEN,
      BETTER_AUTH_SECRET: AUTH_SECRET,
      // Receivers listen on loopback, trusted through the test CA (test/tls.ts).
      WEBHOOK_ALLOW_PRIVATE_NETWORK: '1',
      NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
      NEXT_TELEMETRY_DISABLED: '1',
      UPSTASH_REDIS_REST_URL: '',
      UPSTASH_REDIS_REST_TOKEN: '',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitUntilUp(`${url}/api/health`, child, logFile, { seconds: 90, ready: (status) => status === 200 });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    pid: child.pid!,
    logFile,
    alive: () => child.exitCode === null && child.signalCode === null,
    crash: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}

/** A scratch database on the local PostgreSQL server, and a client to look into it. */
export async function scratchDatabase(): Promise<ScratchDatabase & { sql: postgres.Sql }> {
  const scratch = await createScratchDatabase();
  const sql = postgres(scratch.url, { max: 4, onnotice: () => {} });
  return {
    ...scratch,
    sql,
    drop: async () => {
      await sql.end({ timeout: 1 });
      await scratch.drop();
    },
  };
}

/** JSON over HTTP with the merchant's or the operator's credentials. */
export async function api(base: string, pathname: string, init: { method?: string; auth?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${base}${pathname}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(init.auth ? { Authorization: init.auth } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the suite reads arbitrary JSON bodies
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export const operator = `Bearer ${ADMIN_TOKEN}`;

/** A merchant made through the operator API, its webhooks sent to `webhookUrl`. */
export async function createMerchant(base: string, webhookUrl: string) {
  const res = await api(base, '/admin/merchants', { auth: operator, body: { name: 'Resilience', webhookUrl } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`merchant creation answered ${res.status}: ${res.text}`);
  return { merchantId: res.json.merchantId as string, auth: `Bearer ${res.json.apiKey}:${res.json.apiSecret}` };
}

/** `count` payment links of the merchant, made through the API. */
export async function createLinks(base: string, auth: string, count: number, tag: string): Promise<{ token: string; planId: string }[]> {
  const links = [];
  for (let i = 0; i < count; i++) {
    const res = await api(base, '/merchants/subscription-link', {
      auth,
      body: {
        customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
        plan: { externalReference: `${tag}-${i}`, description: 'Plan mensual', amount: 150000 },
      },
    });
    if (res.status !== 200 && res.status !== 201) throw new Error(`link creation answered ${res.status}: ${res.text}`);
    links.push({ token: res.json.token as string, planId: res.json.subscriptionPlanId as string });
  }
  return links;
}

export const card = (cardNumber: string) => ({ cardNumber, cardExpiry: '12/30', cardCvc: '123', cardHolder: 'Ana Gómez' });

export async function pay(base: string, token: string, cardNumber: string, clientIp: string) {
  return api(base, `/checkout/session/${token}/payments`, { body: card(cardNumber), headers: { 'X-Forwarded-For': clientIp } });
}

/** Polls `check` every 500 ms until it holds or `timeoutMs` passes (then the last answer stands). */
export async function eventually<T>(check: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await check();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    value = await check();
  }
  return value;
}
