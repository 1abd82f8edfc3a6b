import { createHmac } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { enrolTotp } from '../test/portal-browser';
import { totp } from '../test/totp';
import { type Receiver, startReceiver } from '../test/webhook-receiver';
import { BASE_URL, expect, test } from './fixtures';
import { mailTo } from './mailbox';
import { formWith, freshEmail, PASSWORD, signUp, webhookUrlField } from './portal-helpers';

// The hostile journey of issue 38 on the sandbox build (docs/security.md#the-hostile-journey): what an
// attacker holding a portal account, a viewer's seat or a plain HTTP client can and cannot do. The
// production build's side is test/resilience/hostile.resilience.ts.

test.use({ locale: 'es-CO' });

/**
 * A server action called as the browser's JavaScript calls it (`Next-Action`), by someone who read
 * its id from another member's page: `[state, FormData]` in React's reply encoding.
 */
async function callAction(request: APIRequestContext, path: string, actionId: string, fields: Record<string, string> = {}) {
  const multipart: Record<string, string> = { '0': JSON.stringify([{ status: 'idle', message: '' }, '$K1']) };
  for (const [name, value] of Object.entries(fields)) multipart[`_1_${name}`] = value;
  return request.post(path, { headers: { 'Next-Action': actionId, Accept: 'text/x-component', Origin: BASE_URL }, multipart });
}

/** The id of the server action behind the form whose submit button is `button`, from its no-JS hidden fields. */
async function actionIdOf(page: Page, button: string): Promise<string> {
  const field = formWith(page, page.getByRole('button', { name: button })).locator('input[name="$ACTION_1:0"], input[name^="$ACTION_"][name$=":0"]').first();
  return JSON.parse((await field.getAttribute('value'))!).id as string;
}

test('sign-in asks the TOTP code once it is on; a wrong one opens nothing', async ({ page }) => {
  test.setTimeout(60_000);
  const { email } = await signUp(page);
  const secret = await enrolTotp(page, PASSWORD);
  await page.getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/portal\/sign-in/);

  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  // The password alone opens no session: the second step asks the code.
  await expect(page).toHaveURL(/\/portal\/sign-in\/two-factor$/);
  expect((await page.context().cookies()).some((c) => c.name.includes('session_token'))).toBe(false);
  const wrong = String((Number(totp(secret)) + 1) % 1_000_000).padStart(6, '0');
  await page.getByLabel('Código de 6 dígitos o código de respaldo').fill(wrong);
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('no es correcto');
  await expect(page).toHaveURL(/\/portal\/sign-in\/two-factor$/);

  await page.getByLabel('Código de 6 dígitos o código de respaldo').fill(totp(secret));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/portal\/overview$/);
  await page.goto('/portal/settings/members');
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Sí');
});

test('changing the password keeps this session, and the next sign-in takes the new one', async ({ page }) => {
  const { email } = await signUp(page);
  await page.goto('/portal/settings/security');
  const form = formWith(page, page.getByLabel('Contraseña actual'));
  await form.getByLabel('Contraseña actual').fill(PASSWORD);
  await form.getByLabel('Contraseña nueva').fill(`${PASSWORD} nueva`);
  await form.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  await expect(page).toHaveURL(/\/portal\/settings\/security\?password=changed$/);
  await expect(page.getByRole('status').filter({ hasText: 'Contraseña cambiada.' })).toBeVisible();
  await page.getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(`${PASSWORD} nueva`);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/portal\/overview$/);
});

test('a viewer sees no form a viewer would be refused, and a key posted anyway is a 403 naming the role', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signUp(page);
  const viewerEmail = freshEmail();
  await page.goto('/portal/settings/members');
  const invite = formWith(page, page.getByRole('button', { name: 'Enviar la invitación' }));
  await invite.getByLabel('Correo').fill(viewerEmail);
  await invite.getByRole('button', { name: 'Enviar la invitación' }).click();
  await expect(invite.getByRole('status')).toContainText('Invitación enviada');
  const [mail] = await mailTo(viewerEmail, 1);
  const link = /https?:\/\/\S+\/portal\/invitation\?token=[^\s"<>]+/.exec(mail!.text ?? '')![0];

  // The owner's Ajustes → API: where the key form is, and the id of its action.
  await page.goto('/portal/settings/api');
  const createKey = await actionIdOf(page, 'Crear clave');

  const viewer = await browser.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.7' } });
  const v = await viewer.newPage();
  await v.goto(link);
  await v.getByLabel('Su nombre').fill('Vera');
  await v.getByLabel('Contraseña nueva').fill(PASSWORD);
  await v.getByRole('button', { name: 'Crear mi acceso' }).click();
  await expect(v).toHaveURL(/\/portal\/overview$/);

  // Every settings page shows what there is, without a form a Lector would be refused.
  await v.goto('/portal/settings/api');
  await expect(v.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(v.getByRole('button', { name: 'Crear clave' })).toHaveCount(0);
  await expect(v.getByRole('heading', { name: 'Confirme su identidad' })).toHaveCount(0);
  await v.goto('/portal/settings/webhooks');
  await expect(v.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expect(v.getByText('Mostrar el secreto')).toHaveCount(0);
  await expect(v.getByTestId('webhook-secret')).toHaveCount(0);
  await expect(v.getByRole('main').getByRole('button')).toHaveCount(0);
  for (const path of ['/portal/settings/processor', '/portal/coupons', '/portal/sandbox/clock']) {
    await v.goto(path);
    await expect(v.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(v.getByRole('main').locator('form'), path).toHaveCount(0);
  }

  // The key form's action, called anyway with the viewer's session: the 403 naming the role.
  const refused = await callAction(viewer.request, '/portal/settings/api', createKey);
  expect(refused.status()).toBe(200);
  const answer = await refused.text();
  expect(answer).toContain('Prohibido (403): su rol, Lector, no permite esto.');
  expect(answer).not.toContain('sk_test_');
  await page.goto('/portal/settings/api');
  await expect(page.getByText('No tiene claves todavía.')).toBeVisible();
  await viewer.close();
});

const hmac = (body: string, secret: string) => createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex');

test.describe('a rolled webhook secret', () => {
  let receiver: Receiver;
  test.beforeEach(async () => {
    receiver = await startReceiver();
  });
  test.afterEach(async () => {
    await receiver.close();
  });

  test('signs with both secrets for 24 hours; the audit log lists each change with its secrets masked', async ({ page }) => {
    test.setTimeout(90_000);
    const { email } = await signUp(page);
    await page.goto('/portal/settings/webhooks');
    const url = webhookUrlField(page);
    await url.fill(receiver.url);
    await formWith(page, url).getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect(formWith(page, url).getByRole('status')).toHaveText('URL guardada.');
    await page.getByText('Mostrar el secreto').click();
    const before = (await page.getByTestId('webhook-secret').textContent())!;

    const roll = formWith(page, page.getByRole('button', { name: 'Rotar el secreto sin cortes (24 horas)' }));
    await roll.getByRole('button', { name: 'Rotar el secreto sin cortes (24 horas)' }).click();
    await expect(roll.getByRole('status')).toContainText('cada webhook lleva ambas firmas');
    const after = (await roll.getByRole('status').locator('pre code').textContent())!;
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);

    const testForm = page.getByRole('region', { name: 'Evento de prueba' }).locator('form');
    await testForm.getByRole('button', { name: 'Enviar un evento de prueba' }).click();
    await expect(testForm.getByRole('status')).toContainText(/Respuesta: 200/);
    const [delivery] = await receiver.waitFor(1);
    // A receiver still on the old secret and one already on the new one both verify it.
    expect(delivery!.headers['x-webhook-signature']).toBe(hmac(delivery!.body, before));
    expect(delivery!.headers['x-webhook-signature-next']).toBe(hmac(delivery!.body, after));
    // Every owner is told (here the one).
    const notices = await mailTo(email, 3);
    expect(notices.map((m) => m.text ?? '').join('\n')).toContain('el secreto de firma de los webhooks');

    await page.goto('/portal/settings/audit');
    const log = page.getByRole('main');
    await expect(log).toContainText('webhook.secret_rolled');
    await expect(log).toContainText(receiver.url);
    await expect(log).toContainText('••••');
    const text = (await log.textContent())!;
    expect(text).not.toContain(before);
    expect(text).not.toContain(after);
    expect(text).toContain(email);
    const csv = await page.request.get('/portal/export/audit');
    expect(csv.status()).toBe(200);
    const rows = await csv.text();
    expect(rows).toContain('webhook.secret_rolled');
    expect(rows).not.toContain(before);
    expect(rows).not.toContain(after);
  });
});

test('from a plain HTTP client: a live key is a 401, /dev/emails a 404, and every page its headers', async ({ request, admin }) => {
  const live = await request.get('/merchants/webhook-events', { headers: { Authorization: `Bearer pk_live_${'A'.repeat(24)}:sk_live_${'B'.repeat(32)}` } });
  expect(live.status()).toBe(401);
  expect(await live.text()).toContain('A live key (pk_live_) was sent to a sandbox deployment');

  for (const path of ['/dev/emails', '/dev/emails?merchant=x']) expect((await request.get(path)).status(), path).toBe(404);

  const merchant = await admin.post('/admin/merchants', { data: { name: 'Hostile headers' } });
  const { apiKey, apiSecret } = await merchant.json();
  const made = await request.post('/merchants/subscription-link', {
    headers: { Authorization: `Bearer ${apiKey}:${apiSecret}` },
    data: { customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' }, plan: { externalReference: 'hostile-headers', description: 'Plan', amount: 150000 } },
  });
  const { token } = await made.json();
  for (const path of [`/pay/${token}`, `/manage/mng_${'A'.repeat(40)}`, '/portal/sign-in']) {
    const res = await request.get(path);
    const h = res.headers();
    expect(h['content-security-policy'], path).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(h['content-security-policy'], path).toContain('report-uri /');
    expect(h['content-security-policy'], path).toContain('report-to csp');
    expect(h['reporting-endpoints'], path).toMatch(/^csp="/);
    expect(h['referrer-policy'], path).toMatch(/^(no-referrer|same-origin)$/);
    expect(h['cache-control'], path).toContain('no-store');
  }
  // HSTS is the production build's (test/resilience/hostile.resilience.ts): a sandbox may run on plain HTTP.
});
