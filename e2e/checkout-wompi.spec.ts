import { WOMPI_DOUBLE } from './fixtures';
import { expect, expectAccessible, expectState, fillCard, payButton, planStatus, test } from './checkout-helpers';
import { acceptConsent, useWompi, watchRequests } from './wompi-helpers';

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

  await fillCard(page, { number: CARD, cvc: CVC });
  await payButton(page).click();
  // Both documents must be accepted first: nothing is sent anywhere.
  await expect(page.getByText('Debe aceptar ambos documentos para pagar.')).toBeVisible();
  expect(seen.wompi.filter((r) => r.method() === 'POST')).toEqual([]);

  await acceptConsent(page);
  await payButton(page).click();
  await expectState(page, 'approved', 15_000);

  const tokenization = seen.wompi.find((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/v1/tokens/cards');
  expect(tokenization?.postData()).toContain(CARD_DIGITS);
  for (const req of seen.ours) {
    const everything = [req.url(), req.postData() ?? '', JSON.stringify(await req.allHeaders())].join('\n');
    expect(everything.replace(/\s/g, ''), `${req.method()} ${req.url()}`).not.toContain(CARD_DIGITS);
    expect(req.postData() ?? '', `${req.method()} ${req.url()}`).not.toContain(CVC);
  }
  const posted = seen.ours.find((r) => r.method() === 'POST' && /\/payments(\?|$)/.test(r.url()));
  expect(JSON.parse(posted!.postData()!)).toMatchObject({ method: 'CARD', cardToken: expect.stringMatching(/^tok_/), cardLast4: '4242', acceptanceToken: expect.any(String), personalDataToken: expect.any(String) });
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('ACTIVE');
});

test('Nequi for a subscription: the page waits while the payer approves in the app', async ({ page, request, admin, merchant, createLink }) => {
  await useWompi(request, admin, merchant.merchantId);
  const link = await createLink();
  await page.goto(link.url);
  await page.getByRole('radio', { name: /Nequi/ }).check();
  await page.getByLabel('Celular registrado en Nequi').fill('3991111111');
  await acceptConsent(page);
  await page.getByRole('button', { name: /con Nequi/ }).click();
  await expectState(page, 'approved', 15_000);
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('ACTIVE');
});

test('PSE for a single payment: bank, person, document, off to the bank and back to the outcome', async ({ page, request, admin, merchant, createLink }) => {
  await useWompi(request, admin, merchant.merchantId);
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
