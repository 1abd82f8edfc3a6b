import type { Page } from '@playwright/test';
import { WOMPI_DOUBLE } from './fixtures';
import { expect, expectAccessible, expectState, fillCard, LABELS, payButton, planStatus, test } from './checkout-helpers';
import { acceptConsent, consentTokensSpent, recordedAtWompi, sentValues, useWompi, watchRequests } from './wompi-helpers';

test.use({ locale: 'es-CO' });

// A merchant with Wompi test keys, paid on the hosted page against the local Wompi double: the
// card is tokenized in the browser at "Wompi", and no request to our origin carries the card
// number or CVC; both documents accepted; Nequi and PSE. Events reach our events URL from the double.

const CARD = '4242 4242 4242 4242';
const CARD_DIGITS = '4242424242424242';
const CVC = '987';

test('a card is tokenized at Wompi in the browser: no request to our origin carries its number or CVC', async ({ page, request, admin, merchant, createLink }) => {
  await useWompi(request, admin, merchant.merchantId);
  const link = await createLink();
  const seen = watchRequests(page);
  const response = await page.goto(link.url);
  const csp = response!.headers()['content-security-policy']!;
  expect(csp).toContain(`connect-src 'self' ${WOMPI_DOUBLE.origin};`);

  // The holder prefilled from the link ("Ana") is one Wompi refuses: said plainly, before any call to Wompi.
  await fillCard(page, { number: CARD, cvc: CVC });
  await expect(page.getByLabel(LABELS.cardHolder)).toHaveValue('Ana');
  await payButton(page).click();
  await expect(page.getByText(/Escriba el nombre completo como aparece en la tarjeta \(al menos 5 caracteres\)/)).toBeVisible();
  // Both documents must be accepted first: nothing is sent anywhere.
  await expect(page.getByText('Debe aceptar ambos documentos para pagar.')).toBeVisible();
  expect(seen.wompi).toEqual([]);
  await expect(page.getByLabel(LABELS.cardHolder)).toBeFocused();
  await page.getByLabel(LABELS.cardHolder).fill('Ana Gómez');

  await acceptConsent(page);
  await payButton(page).click();
  await expectState(page, 'approved', 15_000);

  const tokenization = seen.wompi.find((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/v1/tokens/cards');
  expect(tokenization?.postData()).toContain(CARD_DIGITS);
  for (const req of seen.ours) {
    const everything = [req.url(), req.postData() ?? '', JSON.stringify(await req.allHeaders())].join('\n');
    expect(everything.replace(/\s/g, ''), `${req.method()} ${req.url()}`).not.toContain(CARD_DIGITS);
    expect(sentValues(req), `${req.method()} ${req.url()}`).not.toContain(CVC);
  }
  const posted = seen.ours.find((r) => r.method() === 'POST' && /\/payments(\?|$)/.test(r.url()));
  expect(JSON.parse(posted!.postData()!)).toMatchObject({ method: 'CARD', cardToken: expect.stringMatching(/^tok_/), cardLast4: '4242', acceptanceToken: expect.any(String), personalDataToken: expect.any(String) });
  // The pair was fetched by the browser when the payer paid, from merchants/info with the key in a header.
  const info = seen.wompi.filter((r) => new URL(r.url()).pathname === '/v1/merchants/info' && r.method() === 'GET');
  expect(info).toHaveLength(1);
  expect(await info[0]!.headerValue('x-merchant-public-key')).toMatch(/^pub_test_/);
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('ACTIVE');
});

test('a retry after a decline fetches a new pair of acceptance tokens; no token is sent twice (RECURRING and SINGLE)', async ({ page, request, admin, merchant, createLink }) => {
  const keys = await useWompi(request, admin, merchant.merchantId);
  for (const modality of ['RECURRING', 'SINGLE'] as const) {
    const link = await createLink({ modality });
    await page.goto(link.url);
    await fillCard(page, { number: '4111 1111 1111 1111', cvc: '123', holder: 'Ana Gómez' });
    await acceptConsent(page);
    await payButton(page).click();
    await expectState(page, 'declined', 15_000);
    await fillCard(page, { number: CARD, cvc: '123' });
    await payButton(page).click();
    await expectState(page, 'approved', 15_000);
    expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe(modality === 'RECURRING' ? 'ACTIVE' : 'COMPLETED');
  }
  const spent = await consentTokensSpent(request, keys.privateKey);
  // Two attempts per link, one pair each (on the source for RECURRING, on the charge for SINGLE).
  expect(spent).toHaveLength(8);
  expect(new Set(spent).size).toBe(8);
  const refused = (await recordedAtWompi(request)).filter((r) => r.authorization === `Bearer ${keys.privateKey}` && r.status >= 400);
  expect(refused).toEqual([]);
});

test('before the page\'s code runs, a Wompi form has no card field names and cannot submit: nothing reaches our origin', async ({ page, request, admin, merchant, createLink }) => {
  await useWompi(request, admin, merchant.merchantId);
  const link = await createLink();
  // The page's scripts never load: what a slow connection shows before hydration.
  await page.route(/\.js(\?|$)/, (route) => route.abort());
  const seen = watchRequests(page);
  await page.goto(link.url);
  await expect(page.getByTestId('wompi-loading')).toHaveText(/La página aún se está cargando/);
  await expect(page.locator('form input[name="cardNumber"], form input[name="cardCvc"], form input[name="cardExpiry"], form input[name="cardHolder"]')).toHaveCount(0);
  const form = page.locator('form', { has: page.locator('#cardNumber') });
  expect(await form.evaluate((f) => [f.getAttribute('method'), f.getAttribute('action')])).toEqual([null, null]);
  await expect(payButton(page)).toBeDisabled();
  const before = seen.ours.length;
  await page.getByLabel(LABELS.cardNumber).fill(CARD);
  await page.getByLabel(LABELS.cardExpiry).fill('12/30');
  await page.getByLabel(LABELS.cardCvc).fill(CVC);
  await page.getByLabel(LABELS.cardHolder).fill('Ana Gómez');
  // Enter in a field, and a forced tap on the disabled button: neither submits.
  await page.getByLabel(LABELS.cardCvc).press('Enter');
  await payButton(page).click({ force: true });
  await expect(page.getByTestId('wompi-loading')).toBeVisible();
  for (const req of seen.ours) {
    const everything = [req.url(), req.postData() ?? ''].join('\n');
    expect(everything.replace(/\s/g, ''), `${req.method()} ${req.url()}`).not.toContain(CARD_DIGITS);
    expect(sentValues(req), `${req.method()} ${req.url()}`).not.toContain(CVC);
  }
  expect(seen.ours.slice(before).filter((r) => r.method() !== 'GET')).toEqual([]);
  expect(new URL(page.url()).search).toBe('');
});

async function payByNequi(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole('radio', { name: /Nequi/ }).check();
  await page.getByLabel('Celular registrado en Nequi').fill('3991111111');
  await acceptConsent(page);
  await page.getByRole('button', { name: /con Nequi/ }).click();
  await expectState(page, 'approved', 15_000);
}

test('Nequi for a subscription: the page posts at once and waits while the payer approves in the app; Wompi\'s nequi_token.updated reaches our events URL', async ({ page, request, admin, merchant, createLink }) => {
  await useWompi(request, admin, merchant.merchantId);
  const link = await createLink();
  const seen = watchRequests(page);
  await payByNequi(page, link.url);
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('ACTIVE');
  // The page never asked Wompi about the token: our server learns the payer's answer.
  expect(seen.wompi.filter((r) => r.method() === 'GET' && /\/tokens\/nequi\//.test(r.url()))).toEqual([]);
  const sent = (await (await request.get(`${WOMPI_DOUBLE.origin}/__control/events`)).json()) as { url: string; status: number; event: string }[];
  expect(sent.filter((e) => e.event === 'nequi_token.updated' && e.url.endsWith(`/processors/wompi/events/${merchant.merchantId}`))).toContainEqual(expect.objectContaining({ status: 200 }));
});

test('Nequi and card for a single payment spend their pair on the transaction', async ({ page, request, admin, merchant, createLink }) => {
  const keys = await useWompi(request, admin, merchant.merchantId);
  const link = await createLink({ modality: 'SINGLE' });
  await payByNequi(page, link.url);
  const charge = (await recordedAtWompi(request)).filter((r) => r.authorization === `Bearer ${keys.privateKey}` && r.path === '/v1/transactions').at(-1)!;
  expect(charge).toMatchObject({ status: 201, body: { payment_method: { type: 'NEQUI', phone_number: '3991111111' }, acceptance_token: expect.any(String) } });
});

test('PSE as Wompi\'s sandbox answers: the bank URL comes with the final status, so the page shows the outcome (banks 1, 2 and 3)', async ({ page, request, admin, merchant, createLink }) => {
  await useWompi(request, admin, merchant.merchantId);
  for (const [bank, state] of [['Banco que aprueba', 'approved'], ['Banco que declina', 'declined'], ['Banco que simula un error', 'error']] as const) {
    const link = await createLink({ modality: 'SINGLE' });
    await page.goto(link.url);
    await page.getByRole('radio', { name: /PSE/ }).check();
    await page.getByLabel('Banco', { exact: true }).selectOption({ label: bank });
    await page.getByLabel('Número de documento').fill('1020304050');
    await page.getByLabel('Nombre completo o razón social').fill('Ana Gómez');
    await acceptConsent(page);
    await page.getByRole('button', { name: 'Continuar al banco' }).click();
    await expectState(page, state, 15_000);
    // Never sent to a bank for a payment already decided.
    expect(new URL(page.url()).origin).not.toBe(WOMPI_DOUBLE.origin);
  }
});

test('PSE for a single payment: bank, person, document, off to the bank while PENDING and back to the outcome', async ({ page, request, admin, merchant, createLink }) => {
  await useWompi(request, admin, merchant.merchantId, { pseUrl: 'while-pending' });
  const link = await createLink({ modality: 'SINGLE' });
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(link.url);
  await page.getByRole('radio', { name: /PSE/ }).check();
  await page.getByLabel('Banco', { exact: true }).selectOption({ label: 'Banco que aprueba' });
  await page.getByLabel('Número de documento').fill('1020304050');
  await page.getByLabel('Nombre completo o razón social').fill('Ana Gómez');
  await acceptConsent(page);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continuar al banco' }).click();
  await page.waitForURL(/\/pay\/[^/]+\?payment=txn_/);
  await expectState(page, 'approved', 15_000);
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('COMPLETED');
});

test('the sandbox offers the same three methods with Wompi sandbox data', async ({ page, createLink }) => {
  const link = await createLink({ modality: 'SINGLE' });
  await page.goto(link.url);
  await expect(page.getByRole('radio')).toHaveCount(3);
  await page.getByRole('radio', { name: /Nequi/ }).check();
  await expect(page.getByText(/399 111 1111 aprueba/)).toBeVisible();
  await page.getByLabel('Celular registrado en Nequi').fill('3992222222');
  await expectAccessible(page);
  await page.getByRole('button', { name: /con Nequi/ }).click();
  await expectState(page, 'declined', 15_000);
  await page.getByRole('radio', { name: /PSE/ }).check();
  await page.getByLabel('Banco', { exact: true }).selectOption({ label: 'Banco que aprueba (sandbox)' });
  await page.getByLabel('Número de documento').fill('1020304050');
  await page.getByRole('button', { name: 'Continuar al banco' }).click();
  await page.waitForURL(/\?payment=txn_/);
  await expectState(page, 'approved', 15_000);
});
