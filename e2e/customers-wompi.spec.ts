import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, expectState, fillCard, payButton, test } from './checkout-helpers';
import { WOMPI_DOUBLE } from './fixtures';
import { acceptConsent, consentTokensSpent, sentValues, useWompi, watchRequests } from './wompi-helpers';

// A Wompi merchant's customer replaces the card on the manage page (docs/customers.md): the new
// card is tokenized in the browser at "Wompi" (the local double), only its token reaches our
// server, it becomes a payment source without a charge, and the next renewal charges that source.

test.use({ locale: 'es-CO' });

const FIRST = '4242 4242 4242 4242';
const NEW_CARD = '4242424242424242';
const NEW_CVC = '731';

interface Recorded {
  method: string;
  path: string;
  authorization: string | null;
  body: Record<string, unknown> | null;
}

/** A new RECURRING link of a merchant now on Wompi, paid by card on the hosted page. */
async function paidAtWompi(page: Page, request: APIRequestContext, admin: APIRequestContext, merchantId: string, createLink: () => Promise<{ url: string; subscriptionPlanId: string }>) {
  const keys = await useWompi(request, admin, merchantId);
  const link = await createLink();
  await page.goto(link.url);
  await fillCard(page, { number: FIRST, cvc: '123', holder: 'Ana Gómez' });
  await acceptConsent(page);
  await payButton(page).click();
  await expectState(page, 'approved', 15_000);
  return { keys, link };
}

/** The requests the Wompi double received with this merchant's private key. */
async function recordedAtWompi(request: APIRequestContext, privateKey: string): Promise<Recorded[]> {
  const all = (await (await request.get(`${WOMPI_DOUBLE.origin}/__control/requests`)).json()) as Recorded[];
  return all.filter((r) => r.authorization === `Bearer ${privateKey}`);
}

test('a RECURRING plan paid by card at Wompi: the customer replaces the card in the browser and the renewal charges the new source', async ({ page, request, admin, merchant, createLink }) => {
  const { keys, link } = await paidAtWompi(page, request, admin, merchant.merchantId, createLink);

  const ofMerchant = () => recordedAtWompi(request, keys.privateKey);
  const charges = async () => (await ofMerchant()).filter((r) => r.method === 'POST' && r.path === '/v1/transactions');
  const firstSource = (await charges()).at(-1)!.body!.payment_source_id as number;
  expect(firstSource).toEqual(expect.any(Number));

  const manage = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: merchant.authorization } });
  expect(manage.status()).toBe(201);
  await page.setViewportSize({ width: 360, height: 800 });
  const seen = watchRequests(page);
  const opened = await page.goto((await manage.json()).url);
  // The checkout's policy: scripts only with this response's nonce, connections only to us and this Wompi origin, never framed.
  const csp = opened!.headers()['content-security-policy']!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic';/);
  expect(csp).toContain(`connect-src 'self' ${WOMPI_DOUBLE.origin};`);
  expect(csp).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('heading', { name: 'Reemplazar el medio de pago' })).toBeVisible();
  await expect(page.getByTestId('manage-replace-unavailable')).toHaveCount(0);
  const save = page.getByRole('button', { name: 'Guardar el medio de pago' });
  await expect(save).toBeEnabled();

  await page.getByLabel('Número de la tarjeta').fill(NEW_CARD);
  await page.getByLabel('Vencimiento (MM/AA)').fill('12/30');
  await page.getByLabel('Código de seguridad (CVC)').fill(NEW_CVC);
  await page.getByLabel('Nombre del titular').fill('Ana Gómez');
  // Both documents first: nothing is sent anywhere.
  await save.click();
  await expect(page.getByText('Debe aceptar ambos documentos para pagar.')).toBeVisible();
  expect(seen.wompi.filter((r) => r.method() === 'POST')).toEqual([]);
  await acceptConsent(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
  // The page leaves for our route as soon as it has the token: keep Wompi's answer on its way through.
  let cardToken = '';
  await page.route('**/v1/tokens/cards', async (route) => {
    const response = await route.fetch();
    cardToken = (await response.json()).data.id;
    await route.fulfill({ response });
  });
  const sourcesBefore = (await ofMerchant()).filter((r) => r.path === '/v1/payment_sources').length;
  const chargesBefore = (await charges()).length;
  await save.click();
  await expect(page.getByText('Listo: guardamos su nuevo medio de pago.')).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page);

  // The card went to "Wompi" only; our server got its token and both acceptance tokens.
  const tokenization = seen.wompi.find((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/v1/tokens/cards');
  expect(tokenization?.postData()).toContain(NEW_CARD);
  expect(cardToken).toMatch(/^tok_/);
  for (const req of seen.ours) {
    const everything = [req.url(), req.postData() ?? '', JSON.stringify(await req.allHeaders())].join('\n');
    expect(everything.replace(/\s/g, ''), `${req.method()} ${req.url()}`).not.toContain(NEW_CARD);
    expect(sentValues(req), `${req.method()} ${req.url()}`).not.toContain(NEW_CVC);
  }
  const posted = seen.ours.filter((r) => r.method() === 'POST').map((r) => r.postData() ?? '');
  expect(posted.some((body) => body.includes(cardToken))).toBe(true);

  // A payment source from that token, without a charge.
  const sources = (await ofMerchant()).filter((r) => r.path === '/v1/payment_sources');
  expect(sources).toHaveLength(sourcesBefore + 1);
  expect(sources.at(-1)!.body).toMatchObject({ type: 'CARD', token: cardToken, acceptance_token: expect.any(String), accept_personal_auth: expect.any(String) });
  expect(await charges()).toHaveLength(chargesBefore);

  // The test clock: the renewal charges the new source, as a recurrent charge.
  const plan = await (await request.get(`/merchants/subscription-plans/${link.subscriptionPlanId}`, { headers: { Authorization: merchant.authorization } })).json();
  const run = await admin.post('/admin/billing/run', { data: { now: (plan.nextChargeDate as number) + 1000 } });
  expect(run.status(), await run.text()).toBe(200);
  const renewal = (await charges()).at(-1)!;
  expect((await charges()).length).toBe(chargesBefore + 1);
  expect(renewal.body).toMatchObject({ recurrent: true });
  // A saved source carries no acceptance tokens; every pair the browser fetched was spent once.
  expect(renewal.body).not.toHaveProperty('acceptance_token');
  const spent = await consentTokensSpent(request, keys.privateKey);
  expect(spent.length).toBeGreaterThanOrEqual(4);
  expect(new Set(spent).size).toBe(spent.length);
  expect(renewal.body!.payment_source_id).toEqual(expect.any(Number));
  expect(renewal.body!.payment_source_id).not.toBe(firstSource);
  expect(renewal.body!.payment_source_id).toBeGreaterThan(firstSource);
});

test("without JavaScript a Wompi merchant's manage page asks for it and has no card field that could post to us", async ({ page, request, admin, merchant, createLink, browser }) => {
  // Paid with JavaScript (the checkout tokenizes at Wompi); the manage page opened without it.
  const { link } = await paidAtWompi(page, request, admin, merchant.merchantId, createLink);

  const manage = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: merchant.authorization } });
  const context = await browser.newContext({ locale: 'es-CO', javaScriptEnabled: false });
  try {
    const noScript = await context.newPage();
    await noScript.goto((await manage.json()).url);
    await expect(noScript.getByText(/su navegador debe tener JavaScript activado/)).toBeVisible();
    await expect(noScript.getByRole('button', { name: 'Guardar el medio de pago' })).toBeDisabled();
    await expect(noScript.getByLabel('Número de la tarjeta')).toBeVisible();
    const form = noScript.getByTestId('manage-wompi-form');
    await expect(form.locator('input[name="cardNumber"], input[name="cardCvc"], input[name="cardExpiry"], input[name="cardHolder"]')).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('Nequi on the manage page: an account not approved in the app changes nothing; an approved one is saved as a source', async ({ page, request, admin, merchant, createLink }) => {
  const { keys, link } = await paidAtWompi(page, request, admin, merchant.merchantId, createLink);
  const sources = async () => (await recordedAtWompi(request, keys.privateKey)).filter((r) => r.path === '/v1/payment_sources');
  const before = (await sources()).length;

  const manage = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: merchant.authorization } });
  await page.goto((await manage.json()).url);
  await page.getByRole('radio', { name: /Nequi/ }).check();
  await page.getByLabel('Celular registrado en Nequi').fill('3992222222');
  await acceptConsent(page);
  await page.getByRole('button', { name: 'Guardar el medio de pago' }).click();
  await expect(page.getByText('El medio de pago fue rechazado. Pruebe con otro.')).toBeVisible({ timeout: 15_000 });
  expect(await sources()).toHaveLength(before);
  await expectAccessible(page);

  await page.getByLabel('Celular registrado en Nequi').fill('3991111111');
  await page.getByRole('button', { name: 'Guardar el medio de pago' }).click();
  await expect(page.getByText('Listo: guardamos su nuevo medio de pago.')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Nequi', { exact: true })).toBeVisible();
  expect((await sources()).at(-1)!.body).toMatchObject({ type: 'NEQUI', token: expect.stringMatching(/^nequi_/) });
  expect(await sources()).toHaveLength(before + 1);
});
