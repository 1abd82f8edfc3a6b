import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chromium, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWompiClient } from '@/lib/processors/wompi/client';
import { eventChecksum, type WompiEvent } from '@/lib/processors/wompi/signatures';
import { enrolTotp } from '@/test/portal-browser';
import { totp } from '@/test/totp';
import { startWompiDouble, testWompiKeys, type WompiDouble } from '@/test/wompi-double';
import { type AppServer, api, createLinks, createMerchant, operator, pay, scratchDatabase, startApp } from './harness';

// The hostile journey of issue 38 from a plain HTTP client (docs/security.md#the-hostile-journey),
// where it needs a production build (SANDBOX_DEPLOYMENT unset) or a database to look into; the
// browser's side, on the sandbox build, is e2e/hostile.spec.ts.

let production: AppServer;
let sandbox: AppServer;
let prodDb: Awaited<ReturnType<typeof scratchDatabase>>;
let sandboxDb: Awaited<ReturnType<typeof scratchDatabase>>;
let double: WompiDouble;
// The sandbox's sealing keys: the one it starts with, and the one `npm run secrets:rotate` moves to.
const OLD_KEY = '0123456789abcdef'.repeat(4);
const NEW_KEY = 'fedcba9876543210'.repeat(4);
const sandboxEnv = (keys: string) => ({ DATABASE_URL: sandboxDb.url, WOMPI_API_URL: double.url, SECRETS_ENCRYPTION_KEYS: keys });

beforeAll(async () => {
  // Wompi's API: a charge stays PENDING until the journey decides it.
  double = await startWompiDouble({ settleMs: 600_000 });
  // One after the other: two made at once can collide on their name.
  prodDb = await scratchDatabase();
  sandboxDb = await scratchDatabase();
  [production, sandbox] = await Promise.all([
    startApp({ DATABASE_URL: prodDb.url, SANDBOX_DEPLOYMENT: '', SECRETS_ENCRYPTION_KEY: 'a1b2'.repeat(16) }, 'hostile-production'),
    startApp(sandboxEnv(OLD_KEY), 'hostile-sandbox'),
  ]);
});
afterAll(async () => {
  await Promise.all([production?.stop(), sandbox?.stop()]);
  await Promise.all([prodDb?.drop(), sandboxDb?.drop(), double?.close()]);
});

describe('a production build', () => {
  it('serves no development or sandbox pages: /dev/emails and /demo are 404', async () => {
    for (const path of ['/dev/emails', '/dev/emails?merchant=mch_x', '/demo']) {
      const res = await fetch(`${production.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('/manage/mng_');
    }
  });

  it('answers a test key with a 401 saying so, and takes its own live key', async () => {
    const merchant = await createMerchant(production.url, 'https://hooks.example.com/servicepay');
    expect(merchant.auth).toMatch(/^Bearer pk_live_[0-9A-Za-z]{24}:sk_live_/);
    const test = await api(production.url, '/merchants/webhook-events', { auth: `Bearer pk_test_${'A'.repeat(24)}:sk_test_${'B'.repeat(32)}` });
    expect(test.status).toBe(401);
    expect(test.text).toContain('A test key (pk_test_) was sent to a live deployment');
    expect((await api(production.url, '/merchants/webhook-events', { auth: merchant.auth })).status).toBe(200);
  });

  it('takes no payment through the built-in sandbox processor: the link is unavailable and a card posted anyway charges nothing', async () => {
    const merchant = await createMerchant(production.url, 'https://hooks.example.com/servicepay');
    const [link] = await createLinks(production.url, merchant.auth, 1, 'hostile-prod');
    const page = await fetch(`${production.url}/pay/${link!.token}`);
    expect(await page.text()).toContain('data-checkout-state="unavailable"');
    const paid = await pay(production.url, link!.token, '4242424242424242', '10.77.0.1');
    expect(paid.status).toBeGreaterThanOrEqual(400);
    expect(paid.json?.status).not.toBe('APPROVED');
    const rows = await prodDb.sql<{ n: number }[]>`select count(*)::int as n from transactions where plan_id = ${link!.planId} and status = 'APPROVED'`;
    expect(rows[0]!.n).toBe(0);
  });

  it('sends HSTS, and its pages their CSP with reporting, Referrer-Policy and Cache-Control', async () => {
    const merchant = await createMerchant(production.url, 'https://hooks.example.com/servicepay');
    const [link] = await createLinks(production.url, merchant.auth, 1, 'hostile-headers');
    for (const path of ['/api/health', '/portal/sign-in', `/pay/${link!.token}`, `/manage/mng_${'A'.repeat(40)}`]) {
      const res = await fetch(`${production.url}${path}`, { redirect: 'manual' });
      expect(res.headers.get('strict-transport-security'), path).toMatch(/max-age=\d{8,}/);
      if (path === '/api/health') continue;
      expect(res.headers.get('content-security-policy'), path).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'.*report-uri \/\S+; report-to csp/);
      expect(res.headers.get('referrer-policy'), path).toMatch(/^(no-referrer|same-origin)$/);
      expect(res.headers.get('cache-control'), path).toContain('no-store');
    }
  });
});

describe('a stolen session cookie on the production build', () => {
  const PASSWORD = 'clave segura 2024';
  /** The link of the newest account e-mail to `to` (production keeps them in the outbox: no SMTP here). */
  const mailedLink = async (to: string, path: RegExp) => {
    const rows = await prodDb.sql<{ text: string }[]>`select text from emails where to_address = ${to} order by created_at desc`;
    return rows.map((r) => path.exec(r.text)?.[0]).find(Boolean)!;
  };
  const keyForm = (page: Page) => page.locator('form').filter({ has: page.getByRole('button', { name: 'Guardar llaves' }) });
  const fillKeys = async (page: Page, keys: Record<string, string>) => {
    const form = keyForm(page);
    for (const [label, value] of Object.entries(keys)) await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole('button', { name: 'Guardar llaves' }).click();
    return form;
  };

  it('cannot change the Wompi keys without the password and the code; changed with them, every owner is e-mailed and the audit log masks them', async () => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const stamp = Date.now();
      const email = `owner-${stamp}@example.com`;
      const partner = `partner-${stamp}@example.com`;
      const owner = await browser.newPage({ baseURL: production.url, locale: 'es-CO' });
      await owner.goto('/portal/sign-up');
      await owner.getByLabel('Nombre del comercio').fill('Gimnasio Norte');
      await owner.getByLabel('Su nombre').fill('Ana');
      await owner.getByLabel('Correo electrónico').fill(email);
      await owner.getByLabel('Contraseña').fill(PASSWORD);
      await owner.getByRole('button', { name: 'Crear cuenta' }).click();
      await owner.waitForURL(/\/portal\/check-email$/);
      await owner.goto(await mailedLink(email, /https?:\/\/\S+\/portal\/verify-email\?token=\S+/));
      await owner.getByRole('button', { name: 'Confirmar mi correo' }).click();
      // Production: an owner works with a second factor, asked for at once.
      await owner.waitForURL(/\/portal\/settings\/security\?required=1$/);
      const factor = await enrolTotp(owner, PASSWORD);

      // A second owner, invited and joined.
      await owner.goto('/portal/settings/members');
      const invite = owner.locator('form').filter({ has: owner.getByRole('button', { name: 'Enviar la invitación' }) });
      await invite.getByLabel('Correo').fill(partner);
      await invite.getByLabel('Rol').selectOption('owner');
      await invite.getByRole('button', { name: 'Enviar la invitación' }).click();
      await invite.getByText('Invitación enviada').waitFor();
      const joined = await browser.newPage({ baseURL: production.url, locale: 'es-CO' });
      await joined.goto(await mailedLink(partner, /https?:\/\/\S+\/portal\/invitation\?token=[^\s<>"]+/));
      await joined.getByLabel('Su nombre').fill('Beto');
      await joined.getByLabel('Contraseña nueva').fill(PASSWORD);
      await joined.getByRole('button', { name: 'Crear mi acceso' }).click();
      await joined.waitForURL(/\/portal\/settings\/security/);

      // The owner's cookie in another browser, some time after the owner last gave the password.
      const thief = await browser.newContext({ baseURL: production.url, locale: 'es-CO' });
      await thief.addCookies(await owner.context().cookies());
      await prodDb.sql`update sessions set authenticated_at = now() - interval '10 minutes'`;
      const stolen = await thief.newPage();
      await stolen.goto('/portal/settings/processor');
      const id = randomBytes(8).toString('hex');
      const keys = { 'Llave pública': `pub_prod_${id}`, 'Llave privada': `prv_prod_${id}`, 'Secreto de eventos': `prod_events_${id}`, 'Secreto de integridad': `prod_integrity_${id}` };
      const refused = await fillKeys(stolen, keys);
      await refused.getByRole('alert').filter({ hasText: 'confirme su identidad' }).waitFor();
      // Without the password the identity card does not open the window either.
      const reauth = stolen.locator('form').filter({ has: stolen.getByRole('button', { name: 'Confirmar', exact: true }) });
      await reauth.getByLabel('Contraseña').fill('adivinanza 12345');
      await reauth.getByLabel('Código de 6 dígitos o código de respaldo').fill('000000');
      await reauth.getByRole('button', { name: 'Confirmar', exact: true }).click();
      await reauth.getByRole('alert').filter({ hasText: 'La contraseña no es correcta.' }).waitFor();
      await fillKeys(stolen, keys);
      await keyForm(stolen).getByRole('alert').filter({ hasText: 'confirme su identidad' }).waitFor();
      const merchant = async () =>
        (await prodDb.sql<{ id: string; processor_type: string }[]>`select m.id, m.processor_type from merchants m join users u on u.merchant_id = m.id where u.email = ${email}`)[0]!;
      expect((await merchant()).processor_type).toBe('sandbox');
      const notices = async () => (await prodDb.sql<{ to_address: string }[]>`select to_address from emails where kind = 'security_notice' and merchant_id = ${(await merchant()).id}`).map((r) => r.to_address).sort();
      expect(await notices()).toEqual([]);

      // The owner, with the password and the code: changed, and both owners are told.
      await owner.goto('/portal/settings/processor');
      const mine = owner.locator('form').filter({ has: owner.getByRole('button', { name: 'Confirmar', exact: true }) });
      await mine.getByLabel('Contraseña').fill(PASSWORD);
      // A code of the next 30 seconds: the one that turned the factor on is spent.
      await mine.getByLabel('Código de 6 dígitos o código de respaldo').fill(totp(factor, Date.now() + 30_000));
      await mine.getByRole('button', { name: 'Confirmar', exact: true }).click();
      await mine.getByRole('status').filter({ hasText: 'Identidad confirmada hasta las' }).waitFor();
      await (await fillKeys(owner, keys)).getByText('Listo: sus pagos se procesan con su cuenta de Wompi.').waitFor();
      expect((await merchant()).processor_type).toBe('wompi');
      expect(await notices()).toEqual([email, partner].sort());

      // The audit log: the change, by whom, its secrets masked.
      await owner.goto('/portal/settings/audit');
      const log = (await owner.getByRole('main').textContent())!;
      expect(log).toContain(email);
      expect(log).toContain('••••');
      for (const secret of [keys['Llave privada'], keys['Secreto de eventos'], keys['Secreto de integridad']]) expect(log).not.toContain(secret);
    } finally {
      await browser.close();
    }
  });
});

describe('a suspended merchant on the sandbox build', () => {
  it('takes no payment and skips its due renewal; reactivated, it charges from the next due day and nothing for the gap', async () => {
    const merchant = await createMerchant(sandbox.url, 'https://hooks.example.com/servicepay');
    const [paid, unpaid] = await createLinks(sandbox.url, merchant.auth, 2, 'hostile-suspended');
    expect((await pay(sandbox.url, paid!.token, '4242424242424242', '10.78.0.1')).json).toMatchObject({ status: 'APPROVED' });

    expect((await api(sandbox.url, `/admin/merchants/${merchant.merchantId}`, { method: 'PATCH', auth: operator, body: { status: 'INACTIVE' } })).status).toBe(200);
    // Its links: the hosted page says unavailable; a card posted anyway is a 409 and records nothing.
    expect(await (await fetch(`${sandbox.url}/pay/${unpaid!.token}`)).text()).toContain('data-checkout-state="unavailable"');
    const refused = await pay(sandbox.url, unpaid!.token, '4242424242424242', '10.78.0.2');
    expect(refused.status).toBe(409);
    expect((await api(sandbox.url, '/merchants/webhook-events', { auth: merchant.auth })).status).toBe(401);

    // Its renewal falls due (two days ago, as if the suspension had lasted past it): the sweep skips it.
    await sandboxDb.sql`update subscription_plans set next_charge_date = now() - interval '2 days' where id = ${paid!.planId}`;
    const during = await api(sandbox.url, '/admin/billing/run', { auth: operator, body: { now: Date.now() } });
    expect(during.status).toBe(200);
    expect(during.json.transactionIds).toEqual([]);
    const charges = () => sandboxDb.sql<{ kind: string; status: string }[]>`select kind, status from transactions where merchant_id = ${merchant.merchantId} order by charge_date`;
    expect(await charges()).toEqual([{ kind: 'INITIAL', status: 'APPROVED' }]);

    // Reactivated: the plan moves to its next due day after now; the gap is never charged.
    expect((await api(sandbox.url, `/admin/merchants/${merchant.merchantId}`, { method: 'PATCH', auth: operator, body: { status: 'ACTIVE' } })).status).toBe(200);
    const [moved] = await sandboxDb.sql<{ next_charge_date: Date }[]>`select next_charge_date from subscription_plans where id = ${paid!.planId}`;
    expect(moved!.next_charge_date.getTime()).toBeGreaterThan(Date.now());
    const after = await api(sandbox.url, '/admin/billing/run', { auth: operator, body: { now: Date.now() } });
    expect(after.json.transactionIds).toEqual([]);
    const resumed = await api(sandbox.url, '/admin/billing/run', { auth: operator, body: { now: moved!.next_charge_date.getTime() + 3_600_000 } });
    expect(resumed.json.transactionIds).toHaveLength(1);
    expect(await charges()).toEqual([
      { kind: 'INITIAL', status: 'APPROVED' },
      { kind: 'RENEWAL', status: 'APPROVED' },
    ]);
    expect(await (await fetch(`${sandbox.url}/pay/${unpaid!.token}`)).text()).not.toContain('data-checkout-state="unavailable"');
  });
});

describe('a Wompi merchant on the sandbox build', () => {
  let wompi: { merchantId: string; planId: string; privateKey: string };

  it('refuses a spliced event with 401; a genuine one settles only once Wompi’s GET /v1/transactions/{id} says so', async () => {
    const merchant = await createMerchant(sandbox.url, 'https://hooks.example.com/servicepay');
    const keys = testWompiKeys();
    double.addMerchant(keys);
    const patched = await api(sandbox.url, `/admin/merchants/${merchant.merchantId}`, { method: 'PATCH', auth: operator, body: { processor: { type: 'wompi', ...keys } } });
    expect(patched.status, patched.text).toBe(200);
    const [link] = await createLinks(sandbox.url, merchant.auth, 1, 'hostile-wompi');
    // What the payer's browser does at Wompi: a card token and the two acceptance tokens.
    const client = createWompiClient({ baseUrl: double.url, publicKey: keys.publicKey });
    const card = await client.tokenizeCard({ number: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
    const consent = await client.merchant();
    const paid = await api(sandbox.url, `/checkout/session/${link!.token}/payments`, {
      headers: { 'X-Forwarded-For': '10.79.0.1' },
      body: {
        method: 'CARD',
        cardToken: card.id,
        cardBrand: 'VISA',
        cardLast4: '4242',
        acceptanceToken: consent.presigned_acceptance.acceptance_token,
        personalDataToken: consent.presigned_personal_data_auth.acceptance_token,
      },
    });
    expect(paid.json).toMatchObject({ status: 'PENDING' });
    const gatewayId = paid.json.transactionId as string;
    const txnId = paid.json.subscriptionTransactionId as string;
    const event = (body: unknown) => api(sandbox.url, `/processors/wompi/events/${merchant.merchantId}`, { body });
    const status = async () => (await sandboxDb.sql<{ status: string }[]>`select status from transactions where id = ${txnId}`)[0]!.status;
    const readBacks = () => double.requests.filter((r) => r.method === 'GET' && r.path === `/v1/transactions/${gatewayId}`).length;

    // One captured genuine event, its property list cut to the id and its status rewritten: the
    // checksum over what it still names matches, and it is refused.
    const genuine = double.buildEvent(gatewayId);
    const cut: WompiEvent = { ...genuine, signature: { properties: ['transaction.id'], checksum: '' }, data: { transaction: { ...(genuine.data.transaction as object), status: 'APPROVED' } } };
    const spliced = await event({ ...cut, signature: { ...cut.signature, checksum: eventChecksum(cut, keys.eventsSecret) } });
    expect(spliced.status).toBe(401);
    expect(spliced.json.error.message).toMatch(/does not cover transaction\.status/);
    expect(await status()).toBe('PENDING');
    expect(readBacks()).toBe(0);

    // A genuine event saying APPROVED while Wompi still says PENDING: read back, and nothing settles.
    const says = double.buildEvent(gatewayId, { status: 'APPROVED' });
    expect(await event(says)).toMatchObject({ status: 200, json: { outcome: 'pending' } });
    expect(readBacks()).toBe(1);
    expect(await status()).toBe('PENDING');
    // Wompi approves it: the same event now settles.
    double.transactions.get(gatewayId)!.status = 'APPROVED';
    expect(await event(says)).toMatchObject({ status: 200, json: { outcome: 'settled' } });
    expect(await status()).toBe('APPROVED');
    wompi = { merchantId: merchant.merchantId, planId: link!.planId, privateKey: keys.privateKey };
  });

  it('npm run secrets:rotate re-seals its keys under the new key, and its next renewal, on a server with the new key alone, still charges', async () => {
    const sealed = async () => (await sandboxDb.sql<{ wompi_secrets: string }[]>`select wompi_secrets from merchants where id = ${wompi.merchantId}`)[0]!.wompi_secrets;
    const before = await sealed();
    const rotate = () =>
      JSON.parse(
        execFileSync('npm', ['run', '--silent', 'secrets:rotate'], {
          env: { ...process.env, DATABASE_URL: sandboxDb.url, SECRETS_ENCRYPTION_KEYS: `${NEW_KEY},${OLD_KEY}`, SANDBOX_DEPLOYMENT: '1' },
          encoding: 'utf8',
        }).trim().split('\n').at(-1)!,
      );
    expect(rotate()).toMatchObject({ resealed: 1 });
    const after = await sealed();
    expect(after).not.toBe(before);
    expect(rotate()).toMatchObject({ resealed: 0 });

    await sandbox.stop();
    sandbox = await startApp(sandboxEnv(NEW_KEY), 'hostile-sandbox-rotated');
    double.setSettleMs(0);
    const [plan] = await sandboxDb.sql<{ next_charge_date: Date }[]>`select next_charge_date from subscription_plans where id = ${wompi.planId}`;
    const now = plan!.next_charge_date.getTime() + 3_600_000;
    const run = await api(sandbox.url, '/admin/billing/run', { auth: operator, body: { now } });
    expect(run.status, run.text).toBe(200);
    expect(run.json.transactionIds).toHaveLength(1);
    const charged = double.requests.filter((r) => r.method === 'POST' && r.path === '/v1/transactions' && r.authorization === `Bearer ${wompi.privateKey}`);
    expect(charged.length).toBeGreaterThanOrEqual(2);
    // Settled by the sweep's answer or by the settler's next pass.
    await api(sandbox.url, '/admin/billing/run', { auth: operator, body: { now: now + 60_000 } });
    const renewals = await sandboxDb.sql<{ status: string }[]>`select status from transactions where plan_id = ${wompi.planId} and kind = 'RENEWAL'`;
    expect(renewals).toEqual([{ status: 'APPROVED' }]);
  });
});
