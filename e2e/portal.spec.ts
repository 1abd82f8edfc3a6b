import { expect, test } from './fixtures';
import { createKey, expectAccessible, formAlert, formWith, freshEmail, linkBody, PASSWORD, signUp, webhookUrlField } from './portal-helpers';

// The merchant portal (issue 8): accounts, API keys, webhook settings, activity, and the abuse
// the issue names. Webhook delivery journeys live in portal-webhooks.spec.ts.

test.use({ locale: 'es-CO' });

test('sign up, create a key, call the API with it, then revoke it and see the API refuse it', async ({ page, request }) => {
  await signUp(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Credenciales de la API' })).toBeVisible();
  await expect(page.getByText('No tiene claves todavía')).toBeVisible();
  await expectAccessible(page);

  const key = await createKey(page);
  expect(key.apiKey).toMatch(/^pk_test_/);
  expect(key.apiSecret).toMatch(/^sk_test_/);
  await expect(page.getByRole('status').filter({ hasText: 'Clave creada' })).toContainText(`Bearer ${key.apiKey}:${key.apiSecret}`);

  const created = await request.post('/merchants/subscription-link', { headers: { Authorization: key.authorization }, data: linkBody('order-portal-1') });
  expect(created.status()).toBe(200);

  // Listed without its secret, which is never shown again.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: key.apiKey });
  await expect(row).toContainText('Activa');
  await expect(page.locator('body')).not.toContainText(key.apiSecret);
  await expect(page.getByRole('region', { name: 'Ejemplo con curl' })).toContainText(key.apiKey);

  // The last active key: revoking it is allowed, after a warning.
  await expect(row.getByText('Es su única clave activa')).toBeVisible();
  await row.getByRole('button', { name: 'Revocar' }).click();
  await expect(page.getByText('No le queda ninguna clave activa')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: key.apiKey })).toContainText('Revocada');

  const refused = await request.post('/merchants/subscription-link', { headers: { Authorization: key.authorization }, data: linkBody('order-portal-2') });
  expect(refused.status()).toBe(401);

  // The plan made with the key shows in Activity.
  await page.getByRole('link', { name: 'Actividad' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'order-portal-1' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Plan mensual' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Plan mensual' })).toBeVisible();
  await expect(page.getByText('Sin transacciones todavía.')).toBeVisible();
  await expectAccessible(page);
});

test('the pinned API version: shown, changed, and the API answers in it from the next call', async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page);
  const version = page.getByRole('combobox', { name: 'Versión fijada' });
  await expect(version).toHaveValue('2026-11-28');
  const before = await request.post('/merchants/subscription-link', { headers: { Authorization: key.authorization }, data: linkBody('order-version-1') });
  expect(before.headers()['servicepay-version']).toBe('2026-11-28');

  await version.selectOption('2026-11-20');
  await formWith(page, version).getByRole('button', { name: 'Guardar versión' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Versión guardada' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Versión fijada' })).toHaveValue('2026-11-20');
  await expectAccessible(page);
  const after = await request.post('/merchants/subscription-link', { headers: { Authorization: key.authorization }, data: linkBody('order-version-2') });
  expect(after.headers()['servicepay-version']).toBe('2026-11-20');
  // A request may still name another version.
  const asked = await request.post('/merchants/subscription-link', {
    headers: { Authorization: key.authorization, 'ServicePay-Version': '2026-11-26' },
    data: linkBody('order-version-3'),
  });
  expect(asked.headers()['servicepay-version']).toBe('2026-11-26');
});

test('webhook retries: refused without a URL, turned on with one, and said so', async ({ page }) => {
  await signUp(page);
  await page.goto('/portal/settings/webhooks');
  const retries = page.getByRole('checkbox', { name: 'Reintentar las entregas fallidas' });
  const form = formWith(page, retries);
  await retries.check();
  await form.getByRole('button', { name: 'Guardar reintentos' }).click();
  await expect(form.getByRole('alert')).toContainText('Configure primero la URL del webhook');

  const url = webhookUrlField(page);
  await url.fill('https://shop.example.com/hooks');
  await formWith(page, url).getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(formWith(page, url).getByRole('status')).toContainText('URL guardada');
  await retries.check();
  await form.getByRole('button', { name: 'Guardar reintentos' }).click();
  await expect(form.getByRole('status')).toContainText('Reintentos activados');
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Reintentar las entregas fallidas' })).toBeChecked();
  await expectAccessible(page);
});

test('webhook settings: https only, a short secret refused, a malformed domain refused, good values kept', async ({ page }) => {
  await signUp(page);
  await page.goto('/portal/settings/webhooks');
  await expectAccessible(page);
  const url = webhookUrlField(page);
  const urlForm = formWith(page, url);

  await url.fill('http://shop.example.com/hooks');
  await urlForm.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(urlForm.getByRole('alert')).toContainText('debe empezar por https://');

  await url.fill('https://shop.example.com/hooks');
  await urlForm.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(urlForm.getByRole('status')).toHaveText('URL guardada.');

  const ownSecret = page.getByLabel('Secreto propio');
  const secretForm = formWith(page, ownSecret);
  await ownSecret.fill('x'.repeat(31));
  await secretForm.getByRole('button', { name: 'Guardar secreto' }).click();
  await expect(secretForm.getByRole('alert')).toContainText('al menos 32 caracteres');

  await page.getByText('Mostrar el secreto').click();
  const before = await page.getByTestId('webhook-secret').textContent();
  expect(before).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  await page.getByRole('button', { name: 'Generar un secreto nuevo' }).click();
  await expect(page.getByText('Secreto nuevo guardado.')).toBeVisible();
  await expect(page.getByTestId('webhook-secret')).not.toHaveText(before!);

  const domains = page.getByLabel('Dominios (uno por línea)');
  const domainsForm = formWith(page, domains);
  await expect(page.getByText('*.ejemplo.com permite solo los subdominios')).toBeVisible();
  await domains.fill('shop.example.com\nhttps://bad.example.com');
  await domainsForm.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(domainsForm.getByRole('alert')).toContainText('"https://bad.example.com" must not include a scheme');
  await domains.fill('shop.example.com\n*.example.com');
  await domainsForm.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(domainsForm.getByRole('status')).toHaveText('Dominios guardados.');

  await page.reload();
  await expect(webhookUrlField(page)).toHaveValue('https://shop.example.com/hooks');
  await expect(page.getByLabel('Dominios (uno por línea)')).toHaveValue('shop.example.com\n*.example.com');
});

test("another merchant's plan or event by URL is a 403 page", async ({ page, admin }) => {
  const other = await (await admin.post('/admin/merchants', { data: { name: 'Otro comercio' } })).json();
  const link = await (
    await admin.post('/merchants/subscription-link', {
      headers: { Authorization: `Bearer ${other.apiKey}:${other.apiSecret}` },
      data: linkBody('order-other'),
    })
  ).json();

  await signUp(page);
  const res = await page.goto(`/portal/activity/plans/${link.subscriptionPlanId}`);
  expect(res?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: 'No tiene acceso a esto' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('order-other');
  await expectAccessible(page);

  expect((await page.goto('/portal/activity/plans/sub_malformed'))?.status()).toBe(404);
  expect((await page.goto('/portal/activity/events/evt_000000000000000000000000'))?.status()).toBe(404);
});

test('sign-in: a wrong password and an unknown e-mail get the same message; then the right one works', async ({ page, browser }) => {
  const { email } = await signUp(page);
  // A context of its own (axe needs one): nobody is signed in there.
  const context = await browser.newContext({ locale: 'es-CO' });
  const fresh = await context.newPage();
  const attempt = async (who: string, password: string) => {
    await fresh.goto('/portal/sign-in');
    await fresh.getByLabel('Correo electrónico').fill(who);
    await fresh.getByLabel('Contraseña').fill(password);
    await fresh.getByRole('button', { name: 'Ingresar' }).click();
  };
  await attempt(email, 'wrong password 1');
  await expect(formAlert(fresh)).toHaveText('Correo o contraseña incorrectos.');
  await attempt(freshEmail(), PASSWORD);
  await expect(formAlert(fresh)).toHaveText('Correo o contraseña incorrectos.');
  await expectAccessible(fresh);
  await attempt(email, PASSWORD);
  await expect(fresh).toHaveURL(/\/portal\/overview$/);
  await context.close();
});

test('sign-in is rate limited per e-mail', async ({ page, browser }) => {
  const { email } = await signUp(page);
  const fresh = await browser.newPage({ locale: 'es-CO' });
  await fresh.goto('/portal/sign-in');
  await fresh.getByLabel('Correo electrónico').fill(email);
  // The five wrong passwords go as the browser would post the form without JavaScript, quickly:
  // the limit is a sliding minute, which counts attempts of the minute before only in part, so
  // all six attempts must fall in one minute of the clock. Start with room to spare.
  const fields = await formWith(fresh, fresh.getByLabel('Correo electrónico')).evaluate((form) =>
    Object.fromEntries([...new FormData(form as HTMLFormElement).entries()].map(([k, v]) => [k, String(v)])),
  );
  const msLeftInMinute = 60_000 - (Date.now() % 60_000);
  if (msLeftInMinute < 20_000) await fresh.waitForTimeout(msLeftInMinute + 250);
  for (let i = 0; i < 5; i++) {
    const answer = await fresh.request.post('/portal/sign-in', {
      headers: { Origin: new URL(fresh.url()).origin },
      multipart: { ...fields, password: `wrong password ${i}` },
    });
    expect(await answer.text()).toContain('Correo o contraseña incorrectos.');
  }
  await fresh.getByLabel('Contraseña').fill(PASSWORD);
  await fresh.getByRole('button', { name: 'Ingresar' }).click();
  await expect(formAlert(fresh)).toContainText('Demasiados intentos');
  await fresh.close();
});

test('a weak password gets a clear message and no account', async ({ page }) => {
  await page.goto('/portal/sign-up');
  await expectAccessible(page);
  await page.getByLabel('Nombre del comercio').fill('Tienda');
  await page.getByLabel('Su nombre').fill('Ana');
  await page.getByLabel('Correo electrónico').fill(freshEmail());
  await page.getByLabel('Contraseña').fill('corta1');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(formAlert(page)).toHaveText('La contraseña es muy corta: use al menos 10 caracteres.');
  await expect(page).toHaveURL(/\/portal\/sign-up$/);
});

test('a form posted from another origin is refused; the same post from the portal is accepted', async ({ page }) => {
  await signUp(page);
  await page.goto('/portal/settings/webhooks');
  await webhookUrlField(page).fill('https://attacker.example/hooks');
  // The form exactly as the browser would send it without JavaScript, fields and action id included.
  const fields = await formWith(page, webhookUrlField(page)).evaluate((form) =>
    Object.fromEntries([...new FormData(form as HTMLFormElement).entries()].map(([k, v]) => [k, String(v)])),
  );
  const post = (origin: string) => page.request.post('/portal/settings/webhooks', { headers: { Origin: origin }, multipart: fields });

  const forged = await post('http://evil.example');
  expect(forged.ok()).toBe(false);
  await page.reload();
  await expect(webhookUrlField(page)).toHaveValue('');

  const genuine = await post(new URL(page.url()).origin);
  expect(genuine.ok()).toBe(true);
  await page.reload();
  await expect(webhookUrlField(page)).toHaveValue('https://attacker.example/hooks');
});

test('sign out everywhere ends the other sessions too', async ({ page, browser }) => {
  const { email } = await signUp(page);
  const other = await browser.newPage({ locale: 'es-CO' });
  await other.goto('/portal/sign-in');
  await other.getByLabel('Correo electrónico').fill(email);
  await other.getByLabel('Contraseña').fill(PASSWORD);
  await other.getByRole('button', { name: 'Ingresar' }).click();
  await expect(other).toHaveURL(/\/portal\/overview$/);

  const cookie = (await page.context().cookies()).find((c) => c.name.includes('session_token'));
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  await page.getByRole('button', { name: 'Cerrar sesión en todos los dispositivos' }).click();
  await expect(page).toHaveURL(/\/portal\/sign-in$/);
  await other.goto('/portal/settings/api');
  await expect(other).toHaveURL(/\/portal\/sign-in$/);
  await other.close();
});

test('English with ?lang=en, and usable at 360 px', async ({ page }) => {
  await signUp(page);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/portal/settings/api?lang=en');
  await expect(page.getByRole('heading', { level: 1, name: 'API credentials' })).toBeVisible();
  // On a phone the sections are behind the menu.
  await page.getByText('Menu', { exact: true }).click();
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expect(webhookUrlField(page, 'Webhook URL')).toBeVisible();
  for (const path of ['/portal/settings/api', '/portal/settings/webhooks', '/portal/activity']) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  // Remembered without ?lang=.
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await expectAccessible(page);
});

test('the portal runs only the scripts of its own pages, each load under a nonce of its own', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await signUp(page);
  const policies: string[] = [];
  for (const path of ['/portal/overview', '/portal/overview']) {
    const response = await page.goto(path);
    policies.push(response!.headers()['content-security-policy'] ?? '');
  }
  for (const policy of policies) expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'; object-src 'none'; base-uri 'none'/);
  expect(policies[0]).not.toBe(policies[1]);
  // The chart is drawn by a client component: the page's own scripts ran under the policy.
  await expect(page.locator('.chart svg.recharts-surface')).toBeVisible();
  // Markup that slipped in (the XSS a policy is for) runs no script.
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<img alt="" src="/missing.png" onerror="window.__injected = true">'));
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(violations.every((v) => v.includes('script-src'))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
});
