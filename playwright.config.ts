import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { createTestCertificates } from './test/tls';
import { ADMIN_API_TOKEN, ALEGRA_DOUBLE, BASE_URL, E2E_PORT, FACTUS_DOUBLE, INNGEST_STUB, SHORT_LIVED_PORT, SHORT_LIVED_TTL_SECONDS, SHORT_LIVED_URL, SMTP_PORT, WOMPI_DOUBLE } from './e2e/fixtures';

const CI = Boolean(process.env.CI);
const DATABASE_URL = process.env.DATABASE_URL?.trim();

/**
 * A fresh embedded database for this run, so the journeys never touch a developer's `.data/`
 * (nor its lock, held by a running `npm run dev`). The runner picks the directory and removes it
 * when it exits, after the server has stopped; test workers inherit the variable instead of
 * picking their own.
 */
function embeddedDataDir(name: string): string {
  if (!process.env.SERVICEPAY_E2E_DIR) {
    const dir = path.join(os.tmpdir(), `servicepay-e2e-${process.pid}-${Date.now().toString(36)}`);
    process.env.SERVICEPAY_E2E_DIR = dir;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return path.join(process.env.SERVICEPAY_E2E_DIR, name, 'pglite');
}

/**
 * The test CA of this run, for HTTPS webhook receivers the journeys start: the servers trust it
 * through NODE_EXTRA_CA_CERTS, as an operator would (docs/operations.md#running-it). Made once by the runner;
 * workers inherit the variable.
 */
function testCaFile(): string {
  if (!process.env.SERVICEPAY_TEST_TLS_DIR) {
    const { dir } = createTestCertificates();
    process.env.SERVICEPAY_TEST_TLS_DIR = dir;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return path.join(process.env.SERVICEPAY_TEST_TLS_DIR, 'ca.pem');
}

/**
 * Where the loopback SMTP server writes each customer e-mail the main server sends (e2e/mailbox.ts
 * reads them). Made once by the runner; workers inherit the variable.
 */
function mailDir(): string {
  if (!process.env.SERVICEPAY_E2E_MAIL_DIR) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-e2e-mail-'));
    process.env.SERVICEPAY_E2E_MAIL_DIR = dir;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return process.env.SERVICEPAY_E2E_MAIL_DIR;
}

const serverEnv = (port: number, url: string, name: string) => ({
  NODE_EXTRA_CA_CERTS: testCaFile(),
  // Receivers listen on loopback (docs/webhooks.md#delivery: the switch is for local tests).
  WEBHOOK_ALLOW_PRIVATE_NETWORK: '1',
  PORT: String(port),
  APP_URL: url,
  ADMIN_API_TOKEN,
  BETTER_AUTH_SECRET: 'e2e-only-portal-auth-secret-0123456789abcdef',
  // A production build that may run the sandbox processor and the test clock (docs/processors.md).
  SANDBOX_DEPLOYMENT: '1',
  SECRETS_ENCRYPTION_KEY: 'e2e0'.repeat(16),
  NEXT_TELEMETRY_DISABLED: '1',
  ...(DATABASE_URL ? {} : { PGLITE_DATA_DIR: embeddedDataDir(name) }),
});

// The server under test is the production build (`next build`, skipped when current, + `next start`), not `next dev`:
// Next 16 builds into `.next/` and keeps dev output apart in `.next/dev/`, so it runs beside a
// developer's `npm run dev` (whose `.next/dev/lock` refuses a second dev server in the same
// folder), edits made during a run cannot hot-reload pages under a test, and the journeys check
// what ships.
const serverCommand = [
  ...(DATABASE_URL ? ['npm run db:migrate'] : []),
  'npm run build:if-stale',
  `npm run start -- --port ${E2E_PORT} --hostname 127.0.0.1`,
].join(' && ');

/**
 * The journeys that move the test clock (POST /admin/billing/run). A sweep renews, retries,
 * settles and cancels every plan on the server, not only the journey's own, so these run one at a
 * time in a project of their own ('test-clock' below), the teardown of the others: it starts once
 * every other journey has finished (and runs even if one failed), while the others run two at a
 * time. Found by the call itself, so a new spec that moves the clock joins them; a helper that made
 * the call would hide it, so one is refused here. `npx playwright test e2e/x.spec.ts` of another
 * spec runs these after it too: add `--no-deps` to run that spec alone.
 */
function clockSpecs(): string[] {
  const dir = path.join(__dirname, 'e2e');
  const callers = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && fs.readFileSync(path.join(dir, name), 'utf8').includes('/admin/billing/run'));
  const helpers = callers.filter((name) => !name.endsWith('.spec.ts'));
  if (helpers.length) throw new Error(`e2e/${helpers.join(', e2e/')}: move the test clock only from a spec file (playwright.config.ts runs those apart)`);
  return callers;
}
const CLOCK_SPECS = clockSpecs();

// Chromium from the system (Playwright downloads no browser), kept off the network: only the
// test server on 127.0.0.1 is ever contacted.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

const browser = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  },
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  // Two at a time: most of a journey is spent waiting (for the server, a charge that settles, a
  // link that expires), not computing. Each worker is a client address of its own (e2e/fixtures.ts).
  workers: 2,
  forbidOnly: CI,
  retries: 0,
  reporter: CI ? 'line' : 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    // A trace is recorded for every journey and kept on failure, for a developer to open; CI's
    // machine keeps none anyone can open, so CI records none (docs/benchmarks.md#ci-time).
    trace: CI ? 'off' : 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: CLOCK_SPECS,
      teardown: 'test-clock',
      use: browser,
    },
    {
      // After every other journey (the teardown of 'chromium'), one at a time (clockSpecs above).
      name: 'test-clock',
      testMatch: CLOCK_SPECS,
      workers: 1,
      use: browser,
    },
  ],
  // Started one after the other: the last serves the build the one before it made.
  webServer: [
    {
      // Wompi's API, played by the local double (docs/processors.md): Wompi merchants' charges go there.
      command: `npx tsx test/wompi-double.ts --port ${WOMPI_DOUBLE.port}`,
      url: `${WOMPI_DOUBLE.origin}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    ...[
      // The e-invoicing providers, played by their local doubles (docs/einvoicing.md#the-doubles).
      `npx tsx test/factus-double.ts --port ${FACTUS_DOUBLE.port}`,
      `npx tsx test/alegra-double.ts --port ${ALEGRA_DOUBLE.port}`,
    ].map((command) => ({ command, port: Number(command.split(' ').at(-1)), reuseExistingServer: false, timeout: 60_000, stdout: 'ignore' as const, stderr: 'pipe' as const })),
    {
      // Customer e-mails (docs/customers.md#e-mails) arrive at a real SMTP server on loopback, which
      // keeps each in a folder every journey reads (e2e/mailbox.ts).
      command: `npx tsx test/smtp-server.ts --port ${SMTP_PORT} --mail-dir ${mailDir()}`,
      port: SMTP_PORT,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: serverCommand,
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      // The build runs first: give it room on a small, busy machine.
      timeout: 480_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      stdout: CI ? 'pipe' : 'ignore',
      stderr: 'pipe',
      env: {
        ...serverEnv(E2E_PORT, BASE_URL, 'main'),
        WOMPI_API_URL: WOMPI_DOUBLE.url,
        FACTUS_API_URL: FACTUS_DOUBLE.url,
        ALEGRA_API_URL: ALEGRA_DOUBLE.url,
        // Customer e-mails go to the loopback SMTP server above.
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        EMAIL_FROM: 'Gimnasio Norte <pagos@servicepay.test>',
      },
    },
    {
      command: `npm run start -- --port ${SHORT_LIVED_PORT} --hostname 127.0.0.1`,
      url: `${SHORT_LIVED_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      stdout: 'ignore',
      stderr: 'pipe',
      // Also the server with Inngest configured (docs/operations.md#running-it), its API played by a stub the
      // Inngest journey starts on loopback.
      env: {
        ...serverEnv(SHORT_LIVED_PORT, SHORT_LIVED_URL, 'short-lived'),
        CHECKOUT_TOKEN_TTL_SECONDS: String(SHORT_LIVED_TTL_SECONDS),
        INNGEST_EVENT_KEY: 'e2e-event-key',
        INNGEST_SIGNING_KEY: INNGEST_STUB.signingKey,
        INNGEST_BASE_URL: INNGEST_STUB.url,
      },
    },
  ],
});
