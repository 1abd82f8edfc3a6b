import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServicePayEvent, servicePayWebhooks } from '../docs/examples/webhook-receiver';
import { CARDS, expectState, pay, test } from './checkout-helpers';
import { BASE_URL, expect } from './fixtures';

// `npm run webhooks:listen` (docs/webhooks.md#on-your-laptop): the README's own receiver, on plain
// http on loopback, gets a signed charge event that it verifies, with no certificate and no
// restart of the server; with a wrong secret the same receiver refuses it (401) and the command says so.

test.use({ locale: 'es-CO' });

interface Listener {
  lines: string[];
  stop: () => void;
}

/** The command, its credentials in the environment as the docs say (never on the command line). */
function startListener(args: string[], credentials: { apiKey?: string; apiSecret?: string; secret?: string } = {}): Promise<Listener> {
  const child: ChildProcess = spawn('npx', ['tsx', 'scripts/webhooks-listen.ts', '--url', BASE_URL, '--interval', '200', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PGLITE_DATA_DIR: '/nonexistent/pglite', SERVICEPAY_API_KEY: credentials.apiKey, SERVICEPAY_API_SECRET: credentials.apiSecret, SERVICEPAY_WEBHOOK_SECRET: credentials.secret },
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const onLine = (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      if (lines.some((l) => l.startsWith('Ready:'))) resolve({ lines, stop: () => child.kill('SIGTERM') });
    };
    child.stdout!.on('data', onLine);
    child.stderr!.on('data', onLine);
    child.once('exit', (code) => reject(new Error(`webhooks:listen exited ${code}: ${lines.join('\n')}`)));
  });
}

async function startReceiver(secret: string) {
  const events: ServicePayEvent[] = [];
  const server = http.createServer(servicePayWebhooks({ secret, handle: async (e) => void events.push(e) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { events, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, close: () => server.close() };
}

test('forwards a verified, signed webhook to a plain-http receiver on the laptop', async ({ page, admin, request }) => {
  test.setTimeout(90_000);
  const created = await (await admin.post('/admin/merchants', { data: { name: 'Laptop Shop' } })).json();
  const receiver = await startReceiver(created.webhookSecret);
  const listener = await startListener(['--forward-to', receiver.url], { apiKey: created.apiKey, apiSecret: created.apiSecret, secret: created.webhookSecret });
  try {
    const res = await request.post('/merchants/subscription-link', {
      headers: { Authorization: `Bearer ${created.apiKey}:${created.apiSecret}` },
      data: { customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' }, plan: { externalReference: `laptop-${Date.now()}`, description: 'Plan', amount: 150000 } },
    });
    const link = await res.json();
    await page.goto(`/pay/${link.token}`);
    await pay(page, { number: CARDS.approved });
    await expectState(page, 'approved');

    await expect.poll(() => receiver.events.length, { timeout: 15_000 }).toBe(1);
    expect(receiver.events[0]).toMatchObject({ event: 'subscription.charge.approved', data: { subscriptionPlanId: link.subscriptionPlanId, status: 'APPROVED', amount: 150000 } });
    await expect.poll(() => listener.lines.join('\n')).toMatch(/subscription\.charge\.approved evt_\w+ -> 200/);
  } finally {
    listener.stop();
    receiver.close();
  }
});

test('a wrong secret is refused by the receiver, and the command shows the 401', async ({ page, admin, request }) => {
  test.setTimeout(90_000);
  const created = await (await admin.post('/admin/merchants', { data: { name: 'Laptop Shop' } })).json();
  const receiver = await startReceiver(created.webhookSecret);
  const listener = await startListener(['--forward-to', receiver.url], { apiKey: created.apiKey, apiSecret: created.apiSecret, secret: `whsec_${'x'.repeat(32)}` });
  try {
    const res = await request.post('/merchants/subscription-link', {
      headers: { Authorization: `Bearer ${created.apiKey}:${created.apiSecret}` },
      data: { customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' }, plan: { externalReference: `laptop-bad-${Date.now()}`, description: 'Plan', amount: 150000 } },
    });
    const link = await res.json();
    await page.goto(`/pay/${link.token}`);
    await pay(page, { number: CARDS.approved });
    await expectState(page, 'approved');
    await expect.poll(() => listener.lines.join('\n'), { timeout: 15_000 }).toMatch(/subscription\.charge\.approved evt_\w+ -> 401/);
    expect(receiver.events).toEqual([]);
  } finally {
    listener.stop();
    receiver.close();
  }
});

test('refuses to start without a forward URL or with malformed credentials, and refuses credentials on the command line', async () => {
  await expect(startListener([], { apiKey: 'nope', apiSecret: 'sk_b', secret: 'whsec_x' })).rejects.toThrow(/exited 2[\s\S]*--forward-to[\s\S]*SERVICEPAY_API_KEY=pk_… and SERVICEPAY_API_SECRET=sk_…/);
  await expect(startListener(['--forward-to', 'http://127.0.0.1:9/x', '--api-key', 'pk_a'], { apiKey: 'pk_a', apiSecret: 'sk_b', secret: 'whsec_x' })).rejects.toThrow(
    /exited 2[\s\S]*no credentials on the command line/,
  );
});

/** `npm run webhooks:trigger -- <args>` with the merchant's credentials: its exit code and output. */
async function trigger(args: string[], credentials: { apiKey: string; apiSecret: string }) {
  try {
    const { stdout, stderr } = await promisify(execFile)('npx', ['tsx', 'scripts/webhooks-trigger.ts', '--url', BASE_URL, ...args], {
      env: { ...process.env, PGLITE_DATA_DIR: '/nonexistent/pglite', SERVICEPAY_API_KEY: credentials.apiKey, SERVICEPAY_API_SECRET: credentials.apiSecret },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

test('webhooks:trigger makes a real declined charge without a browser, and webhooks:listen forwards its event', async ({ admin }) => {
  test.setTimeout(90_000);
  const created = await (await admin.post('/admin/merchants', { data: { name: 'Laptop Shop' } })).json();
  const credentials = { apiKey: created.apiKey, apiSecret: created.apiSecret };
  const receiver = await startReceiver(created.webhookSecret);
  const listener = await startListener(['--forward-to', receiver.url], { ...credentials, secret: created.webhookSecret });
  try {
    const made = await trigger(['subscription.charge.declined'], credentials);
    expect(made.code, made.output).toBe(0);
    expect(made.output).toMatch(/plan sub_\w+: subscription\.charge\.declined evt_\w+/);
    await expect.poll(() => receiver.events.map((e) => e.event), { timeout: 15_000 }).toEqual(['subscription.charge.declined']);

    // Unknown or lifecycle events the merchant has not chosen are refused, saying what to do.
    const unknown = await trigger(['subscription.charge.refunded'], credentials);
    expect(unknown).toMatchObject({ code: 2, output: expect.stringContaining('events: subscription.charge.approved') });
    const unchosen = await trigger(['subscription.cancelled'], credentials);
    expect(unchosen).toMatchObject({ code: 2, output: expect.stringContaining('choose it in the portal') });
  } finally {
    listener.stop();
    receiver.close();
  }
});
