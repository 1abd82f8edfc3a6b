import {
  CARDS,
  expect,
  expectAccessible,
  expectCheckoutHeaders,
  expectPlanStatus,
  expectState,
  createShortLivedLink,
  LABELS,
  pay,
  payButton,
  test,
  watchPayments,
} from './checkout-helpers';

// A customer paying with each sandbox card (docs/processors.md#the-sandbox), and what the merchant's backend then
// reads from the plan status endpoint (docs/api.md#plan-status): the page and the server must agree.

test.use({ locale: 'es-CO' });

const GATEWAY_ID = /^\d+(-\d+)+$/;

test('an approved card activates the subscription; the link then shows it is paid', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  const { posts } = watchPayments(page);
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });

  await expectState(page, 'approved');
  const status = page.getByRole('status');
  await expect(status).toContainText('¡Pago aprobado!');
  await expect(status).toContainText('Su suscripción a Plan Gimnasio quedó activa');
  await expect(page.locator('form')).toHaveCount(0);
  expect(posts).toHaveLength(1);
  expect(posts[0]!.postDataJSON()).toEqual({
    cardNumber: '4242 4242 4242 4242',
    cardExpiry: expect.stringMatching(/^\d{2}\/\d{2}$/),
    cardCvc: '123',
    cardHolder: 'Ana Gómez',
  });

  const shownId = (await status.getByText(GATEWAY_ID).textContent())!.trim();
  const plan = await expectPlanStatus(request, merchant, link.subscriptionPlanId, { plan: 'ACTIVE', lastCharge: 'APPROVED' });
  expect(plan.lastTransaction?.gatewayTransactionId).toBe(shownId);
  await expectAccessible(page);

  // Opening the link again: already paid, nothing to fill in.
  const res = await page.goto(`/pay/${link.token}`);
  expectCheckoutHeaders(res!.headers());
  await expectState(page, 'paid');
  await expect(page.getByRole('status')).toContainText('Este link ya fue pagado');
  await expect(page.locator('form, input')).toHaveCount(0);
  await expectAccessible(page);
});

test('a one-time payment completes the plan', async ({ page, request, merchant, createLink }) => {
  const link = await createLink({ modality: 'SINGLE' });
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.approved });
  await expectState(page, 'approved');
  await expect(page.getByRole('status')).toContainText('Su pago de $ 1.500 a Gimnasio Norte quedó registrado');
  await expectPlanStatus(request, merchant, link.subscriptionPlanId, { plan: 'COMPLETED', lastCharge: 'APPROVED' });

  await page.reload();
  await expectState(page, 'paid');
  await expect(page.locator('form')).toHaveCount(0);
});

test('declined for insufficient funds, then approved with another card', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.insufficientFunds });

  await expectState(page, 'declined');
  const status = page.getByRole('status');
  await expect(status).toContainText('Pago rechazado');
  await expect(status).toContainText('fondos insuficientes');
  await expect(status).toContainText('Intente con otra tarjeta');
  // Ready for another card: the number and code are cleared, the cursor is in the number.
  await expect(page.getByLabel(LABELS.cardNumber)).toHaveValue('');
  await expect(page.getByLabel(LABELS.cardCvc)).toHaveValue('');
  await expect(page.getByLabel(LABELS.cardNumber)).toBeFocused();
  await expect(payButton(page)).toBeEnabled();
  await expectAccessible(page);

  await expectPlanStatus(request, merchant, link.subscriptionPlanId, { plan: 'PENDING_ACTIVATION', lastCharge: 'DECLINED' });

  await pay(page, { number: CARDS.approved });
  await expectState(page, 'approved');
  await expectPlanStatus(request, merchant, link.subscriptionPlanId, { plan: 'ACTIVE', lastCharge: 'APPROVED' });
});

test('a card the sandbox does not support is declined as such', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.notSupported });
  await expectState(page, 'declined');
  await expect(page.getByRole('status')).toContainText('Esta tarjeta no es aceptada');
  await expectPlanStatus(request, merchant, link.subscriptionPlanId, { plan: 'PENDING_ACTIVATION', lastCharge: 'DECLINED' });
});

test('a processor error asks to try again later or with another card', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.processorError });

  await expectState(page, 'error');
  const status = page.getByRole('status');
  await expect(status).toContainText('No pudimos procesar el pago');
  await expect(status).toContainText('Intente de nuevo en unos minutos o con otra tarjeta');
  await expect(payButton(page)).toBeFocused();
  await expectPlanStatus(request, merchant, link.subscriptionPlanId, { plan: 'PENDING_ACTIVATION', lastCharge: 'ERROR' });

  // The same link still takes a payment.
  await pay(page, { number: CARDS.approved });
  await expectState(page, 'approved');
});

test('a pending charge shows progress, is checked every 2 s, and ends approved', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  const { posts, polls } = watchPayments(page);
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.pendingThenApproved });

  await expectState(page, 'processing');
  await expect(payButton(page).or(page.getByRole('button', { name: 'Procesando…' }))).toBeDisabled();
  await expect(page.getByRole('button')).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('status')).toContainText('Su banco está confirmando el pago');

  await expectState(page, 'approved', 20_000);
  expect(posts).toHaveLength(1);
  expect(polls.length).toBeGreaterThanOrEqual(1);
  for (let i = 1; i < polls.length; i++) expect(polls[i]!.at - polls[i - 1]!.at).toBeGreaterThanOrEqual(1_500);
  const plan = await expectPlanStatus(request, merchant, link.subscriptionPlanId, { plan: 'ACTIVE', lastCharge: 'APPROVED' });
  await expect(page.getByRole('status')).toContainText(plan.lastTransaction!.gatewayTransactionId!);
});

test('a pending charge that ends declined lets the customer try again', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.pendingThenDeclined });
  await expectState(page, 'processing');
  await expectState(page, 'declined', 20_000);
  await expect(page.getByRole('status')).toContainText('Pago rechazado');
  await expect(page.locator('form')).toHaveCount(1);
  await expectPlanStatus(request, merchant, link.subscriptionPlanId, { plan: 'PENDING_ACTIVATION', lastCharge: 'DECLINED' });
});

test('a link paid in another tab is shown as paid when this tab tries to pay', async ({ page, context, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  const other = await context.newPage();
  await other.goto(`/pay/${link.token}`);
  await pay(other, { number: CARDS.approved });
  await expectState(other, 'approved');

  await pay(page, { number: CARDS.approved });
  await expectState(page, 'paid');
  await expect(page.getByRole('status')).toContainText('Este link ya fue pagado');
  await expect(page.locator('form')).toHaveCount(0);
});

test('after five failed attempts the link says there were too many', async ({ page, createLink }) => {
  test.slow();
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  for (let attempt = 0; attempt < 5; attempt++) {
    await pay(page, { number: CARDS.insufficientFunds });
    await expectState(page, 'declined');
    await expect(payButton(page)).toBeEnabled();
  }
  await pay(page, { number: CARDS.insufficientFunds });
  await expectState(page, 'error');
  await expect(page.getByRole('status')).toContainText('Demasiados intentos');
});

test.describe('an expired link', () => {
  test('says to ask the merchant for a new one, with no form', async ({ page, request }) => {
    const link = await createShortLivedLink(request);
    await link.waitUntilExpired();
    const res = await page.goto(link.url);
    expect(res?.status()).toBe(200);
    expectCheckoutHeaders(res!.headers());
    await expectState(page, 'expired');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Este link de pago venció/);
    await expect(page.getByRole('status')).toContainText('Pídale al comercio un link nuevo');
    await expect(page.locator('form, input')).toHaveCount(0);
    await expectAccessible(page);
  });

  test('that expires while the page is open ends the form at the next payment', async ({ page, request }) => {
    const link = await createShortLivedLink(request);
    await page.goto(link.url);
    await expectState(page, 'ready');
    await link.waitUntilExpired();
    await pay(page, { number: CARDS.approved });
    await expectState(page, 'expired');
    await expect(page.getByRole('status')).toContainText('Este link de pago venció');
    await expect(page.locator('form')).toHaveCount(0);
  });
});
