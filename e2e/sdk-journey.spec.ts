import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CARDS, expectState, pay, test } from './checkout-helpers';
import { BASE_URL, expect } from './fixtures';

// docs/sdk.md#the-journey: @servicepay/node as a merchant gets it. A project of its own outside
// the repository installs the packed SDK from its tarball (offline: it has no dependency), its
// code and the README's receiver example compile against it (tsc, NodeNext) while a call with a
// wrong type does not, and its backend
// script (e2e/sdk-consumer/journey.ts) runs against this server: it creates a link, the customer
// pays it in Chromium, one waitForOutcome call sees it approved, and the real webhook arrives at the
// script's HTTPS receiver on loopback and verifies with webhooks.verify.

test.use({ locale: 'es-CO' });

const ROOT = path.join(__dirname, '..');

/** npm and node as a merchant runs them: none of the npm settings of the `npm test` around us. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of Object.keys(env)) if (/^npm_/i.test(name)) delete env[name];
  return env;
}

const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * A new project in a temporary folder with the packed SDK installed, its code type-checked against
 * it. What `npm pack` ships is checked on the way: dist (ESM and types), the README and
 * package.json only, and no dependency.
 */
function merchantProject(work: string): string {
  const packageDir = path.join(ROOT, 'packages', 'node');
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], packageDir)) as { filename: string; files: { path: string }[] }[];
  const files = packed!.files.map((f) => f.path);
  expect(files).toEqual(expect.arrayContaining(['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/webhooks.js', 'dist/generated.d.ts']));
  expect(files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json')).toEqual([]);
  expect(JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).dependencies).toBeUndefined();

  const project = path.join(work, 'shop');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }, null, 2));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, packed!.filename)], project);
  // A copy unpacked from the tarball, not a link back into the repository.
  expect(fs.lstatSync(path.join(project, 'node_modules', '@servicepay', 'node')).isSymbolicLink()).toBe(false);
  expect(JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')).dependencies).toEqual({ '@servicepay/node': `file:../${packed!.filename}` });

  // The backend script, the README's receiver, and a call with a wrong type: only the last fails to compile.
  fs.copyFileSync(path.join(ROOT, 'e2e', 'sdk-consumer', 'journey.ts'), path.join(project, 'journey.ts'));
  fs.copyFileSync(path.join(ROOT, 'docs', 'examples', 'webhook-receiver.ts'), path.join(project, 'webhook-receiver.ts'));
  fs.writeFileSync(
    path.join(project, 'wrong.ts'),
    "import { ServicePay } from '@servicepay/node';\nexport const p = new ServicePay({ apiKey: 'a', apiSecret: 'b', baseUrl: 'c' }).links.create({ customer: { phone: '+57', email: 'e' }, plan: { externalReference: 'r', description: 'd', amount: '1500' } });\n",
  );
  fs.writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noUncheckedIndexedAccess: true, noEmit: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')] },
      include: ['journey.ts', 'webhook-receiver.ts', 'wrong.ts'],
    }),
  );
  let errors = '';
  try {
    run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], project);
  } catch (error) {
    errors = String((error as { stdout?: string }).stdout);
  }
  expect(errors.trim().split('\n').filter((l) => /error TS/.test(l))).toEqual([expect.stringMatching(/^wrong\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/)]);
  return project;
}

/** The script's JSON lines, as they come. */
function startJourney(project: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['journey.ts'], { cwd: project, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let output = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk;
    pending += chunk;
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line));
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  let ended = false;
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => ((ended = true), resolve(code))));
  /** The first line that has `key`; if the script ends without one, its output. */
  const line = async <T extends Record<string, unknown>>(key: string): Promise<T> => {
    await expect.poll(() => ended || lines.some((l) => key in l), { timeout: 90_000 }).toBe(true);
    const found = lines.find((l) => key in l);
    if (!found) throw new Error(`journey.ts ended without "${key}":\n${output}`);
    return found as T;
  };
  return { line, exited, output: () => output, stop: () => child.kill('SIGTERM') };
}

test('a merchant project installs the packed SDK, creates a link, waits for the outcome and verifies the real webhook', async ({ page, admin, request }) => {
  test.setTimeout(180_000);
  // Node runs the script's TypeScript as it is (type stripping, Node 22.18 and later).
  expect(process.features.typescript, 'a Node.js that strips types').toBeTruthy();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-sdk-journey-'));
  try {
    const project = await test.step('a fresh project installs the tarball and compiles', () => merchantProject(work));

    const created = await (await admin.post('/admin/merchants', { data: { name: 'Tienda SDK' } })).json();
    const tls = process.env.SERVICEPAY_TEST_TLS_DIR!;
    const journey = startJourney(project, {
      SERVICEPAY_URL: BASE_URL,
      SERVICEPAY_API_KEY: created.apiKey,
      SERVICEPAY_API_SECRET: created.apiSecret,
      SERVICEPAY_WEBHOOK_SECRET: created.webhookSecret,
      TLS_KEY_FILE: path.join(tls, 'server.key'),
      TLS_CERT_FILE: path.join(tls, 'server.pem'),
    });
    try {
      // The merchant sets its webhook URL (the script's receiver) before any payment.
      const { receiver: receiverUrl } = await journey.line<{ receiver: string }>('receiver');
      expect((await admin.patch(`/admin/merchants/${created.merchantId}`, { data: { webhookUrl: receiverUrl } })).status()).toBe(200);

      const { link } = await journey.line<{ link: { url: string; token: string; subscriptionPlanId: string } }>('link');
      expect(link.url).toBe(`${BASE_URL}/pay/${link.token}`);
      await page.goto(link.url);
      await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });
      await expectState(page, 'approved');

      const result = await journey.line<{ outcome: string; status: unknown; webhook: { id: string; body: string } }>('outcome');
      expect(await journey.exited, journey.output()).toBe(0);
      expect(result.outcome).toBe('approved');
      expect(result.status).toMatchObject({ plan: { status: 'ACTIVE' }, lastTransaction: { status: 'APPROVED', amount: 150000 } });
      expect(result.webhook).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        verified: true,
        alteredVerifies: false,
        event: { event: 'subscription.charge.approved', data: { subscriptionPlanId: link.subscriptionPlanId, status: 'APPROVED', amount: 150000 } },
      });

      // What the server says it sent: that event, those bytes, answered 200 by the script's receiver.
      await expect
        .poll(async () => {
          const res = await request.get(`/merchants/webhook-events?subscriptionPlanId=${link.subscriptionPlanId}`, {
            headers: { Authorization: `Bearer ${created.apiKey}:${created.apiSecret}` },
          });
          const [event] = (await res.json()).data;
          return { id: event.id, body: event.body, codes: event.attempts.map((a: { statusCode: number | null }) => a.statusCode) };
        })
        .toEqual({ id: result.webhook.id, body: result.webhook.body, codes: [200] });
    } finally {
      journey.stop();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});
