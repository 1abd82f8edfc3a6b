import { createHash } from 'node:crypto';
import {
  CARDS,
  checkoutRoot,
  expect,
  expectAccessible,
  expectCheckoutHeaders,
  expectHydrated,
  expectState,
  fillCard,
  FUTURE_EXPIRY,
  LABELS,
  payButton,
  planStatus,
  test,
  watchPayments,
} from './checkout-helpers';

// The hosted checkout page before any payment: what it shows, its headers, its 404, its
// language, its form checks, and how it behaves at 360 px and with a keyboard (docs/checkout.md#hosted-page).

test.use({ locale: 'es-CO' });

test.describe('a payable link', () => {
  test('shows what is paid, to whom and for whom, with the card form', async ({ page, createLink }) => {
    const link = await createLink();
    const res = await page.goto(`/pay/${link.token}`);
    expect(res?.status()).toBe(200);
    await expectState(page, 'ready');

    const root = checkoutRoot(page);
    await expect(root).toHaveAttribute('lang', 'es-CO');
    await expect(page.getByRole('heading', { level: 1, name: 'Plan Gimnasio' })).toBeVisible();
    await expect(root).toContainText('Gimnasio Norte');
    await expect(root).toContainText('$ 1.500');
    await expect(root).toContainText('Suscripción mensual');
    // The customer from the link, not asked again.
    await expect(root).toContainText('Ana');
    await expect(root).toContainText('+57 300 123 4567');
    await expect(page.getByRole('status')).toHaveCount(1);

    const fields = [
      ['cardNumber', LABELS.cardNumber, 'cc-number', 'numeric'],
      ['cardExpiry', LABELS.cardExpiry, 'cc-exp', 'numeric'],
      ['cardCvc', LABELS.cardCvc, 'cc-csc', 'numeric'],
      ['cardHolder', LABELS.cardHolder, 'cc-name', null],
    ] as const;
    for (const [name, label, autocomplete, inputmode] of fields) {
      const input = page.getByLabel(label);
      await expect(input).toHaveAttribute('name', name);
      await expect(input).toHaveAttribute('autocomplete', autocomplete);
      if (inputmode) await expect(input).toHaveAttribute('inputmode', inputmode);
    }
    await expect(page.getByLabel(LABELS.cardHolder)).toHaveValue('Ana');
    await expect(page.getByRole('button')).toHaveCount(1);
    await expect(payButton(page)).toHaveText('Pagar $ 1.500');
  });

  test('shows a one-time payment and cents when there are any', async ({ page, createLink }) => {
    const link = await createLink({ modality: 'SINGLE', amount: 12_345_678, firstName: null, description: 'Matrícula' });
    await page.goto(`/pay/${link.token}`);
    await expectState(page, 'ready');
    await expect(checkoutRoot(page)).toContainText('Pago único');
    await expect(checkoutRoot(page)).toContainText('$ 123.456,78');
    await expect(page.getByLabel(LABELS.cardHolder)).toHaveValue('');
  });

  test('answers with a strict, nonce-based Content-Security-Policy and hydrates under it', async ({ page, createLink }) => {
    const link = await createLink();
    const res = await page.goto(`/pay/${link.token}`);
    const nonce = expectCheckoutHeaders(res!.headers());
    // Next puts the request's nonce on every script it renders; none runs without it.
    const scripts = await page.locator('script').evaluateAll((els) => els.map((s) => (s as HTMLScriptElement).nonce));
    expect(scripts.length).toBeGreaterThan(0);
    expect(new Set(scripts)).toEqual(new Set([nonce]));
    // Hydrated: the form reacts to typing (the number is grouped as it is typed).
    await expectHydrated(page);
    await page.getByLabel(LABELS.cardNumber).pressSequentially('42424242');
    await expect(page.getByLabel(LABELS.cardNumber)).toHaveValue('4242 4242');
    // Nothing was loaded from another origin.
    const origins = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).origin));
    expect(origins.filter((o) => o !== new URL(page.url()).origin)).toEqual([]);
  });

  test('carries its CSS in the HTML, allowed by hash, so it paints with no stylesheet to wait for', async ({ page, createLink }) => {
    const link = await createLink();
    const res = await page.goto(`/pay/${link.token}`);
    const styleSrc = (res!.headers()['content-security-policy'] ?? '').split('; ').find((d) => d.startsWith('style-src '))?.split(' ') ?? [];
    expect(styleSrc).not.toContain("'unsafe-inline'");
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
    const styles = await page.locator('style').allTextContents();
    expect(styles.length).toBeGreaterThan(0);
    for (const css of styles) expect(styleSrc).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    // Applied (a blocked one would also be a violation): the page's rules, not the browser's 8 px.
    expect(await page.evaluate(() => getComputedStyle(document.body).marginTop)).toBe('0px');
  });

  test('a fresh nonce on every response', async ({ request, createLink }) => {
    const link = await createLink();
    const first = expectCheckoutHeaders((await request.get(`/pay/${link.token}`)).headers());
    const second = expectCheckoutHeaders((await request.get(`/pay/${link.token}`)).headers());
    expect(first).not.toBe(second);
  });

  test('has no serious accessibility violations', async ({ page, createLink }) => {
    const link = await createLink();
    await page.goto(`/pay/${link.token}`);
    await expectState(page, 'ready');
    await expectAccessible(page);
  });
});

test.describe('the card form checks before sending', () => {
  test('refuses a bad number, a past expiry, a short CVC and an empty holder without any request', async ({ page, createLink }) => {
    const link = await createLink();
    const { posts } = watchPayments(page);
    await page.goto(`/pay/${link.token}`);
    await expectState(page, 'ready');

    await fillCard(page, { number: '4242 4242 4242 4241', expiry: '01/20', cvc: '12', holder: '' });
    await payButton(page).click();

    const expected = [
      [LABELS.cardNumber, 'El número de la tarjeta no es válido'],
      [LABELS.cardExpiry, 'Esta tarjeta está vencida'],
      [LABELS.cardCvc, 'El código tiene 3 dígitos'],
      [LABELS.cardHolder, 'Ingrese el nombre del titular'],
    ] as const;
    for (const [label, message] of expected) {
      const input = page.getByLabel(label);
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(new RegExp(message));
      const describedBy = (await input.getAttribute('aria-describedby'))!.split(' ');
      const shown = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()));
      expect(shown.join(' ')).toContain(message);
    }
    // Focus goes to the first field in error.
    await expect(page.getByLabel(LABELS.cardNumber)).toBeFocused();
    await expectState(page, 'ready');

    // Correcting a field clears its mark.
    await page.getByLabel(LABELS.cardCvc).fill('123');
    await expect(page.getByLabel(LABELS.cardCvc)).not.toHaveAttribute('aria-invalid', 'true');

    await page.waitForTimeout(300);
    expect(posts).toHaveLength(0);
  });

  test('refuses a malformed expiry and an empty form', async ({ page, createLink }) => {
    const link = await createLink({ firstName: null });
    const { posts } = watchPayments(page);
    await page.goto(`/pay/${link.token}`);
    await expectState(page, 'ready');
    await expectHydrated(page);
    await payButton(page).click();
    for (const label of Object.values(LABELS)) await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel(LABELS.cardNumber)).toHaveAccessibleDescription('Ingrese el número de la tarjeta.');

    await fillCard(page, { number: CARDS.approved, expiry: '13/30', holder: 'Ana Gómez' });
    await payButton(page).click();
    await expect(page.getByLabel(LABELS.cardExpiry)).toHaveAccessibleDescription(/formato MM\/AA/);
    await expect(page.getByLabel(LABELS.cardExpiry)).toBeFocused();
    await expect(page.getByLabel(LABELS.cardNumber)).not.toHaveAttribute('aria-invalid', 'true');
    expect(posts).toHaveLength(0);
  });
});

test('pays with the keyboard alone', async ({ page, createLink, request, merchant }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await expectState(page, 'ready');

  await expectHydrated(page);
  // Tab from the top of the page to the first field, then through the form.
  await page.locator('body').focus();
  for (let i = 0; i < 10 && !(await page.getByLabel(LABELS.cardNumber).evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(page.getByLabel(LABELS.cardNumber)).toBeFocused();
  await page.keyboard.type('4242424242424242');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(LABELS.cardExpiry)).toBeFocused();
  await page.keyboard.type(FUTURE_EXPIRY.replace('/', ''));
  await expect(page.getByLabel(LABELS.cardExpiry)).toHaveValue(FUTURE_EXPIRY);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(LABELS.cardCvc)).toBeFocused();
  await page.keyboard.type('123');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(LABELS.cardHolder)).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.type(' Gómez');
  // The focused field shows where focus is.
  const outline = await page.getByLabel(LABELS.cardHolder).evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Tab');
  await expect(payButton(page)).toBeFocused();
  await page.keyboard.press('Enter');

  await expectState(page, 'approved');
  await expect(page.getByRole('status')).toContainText('¡Pago aprobado!');
  const status = await planStatus(request, merchant, link.subscriptionPlanId);
  expect(status.plan.status).toBe('ACTIVE');
});

test.describe('at 360 px wide', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('nothing scrolls sideways, before or after an outcome', async ({ page, createLink }) => {
    const link = await createLink({ description: 'Plan Gimnasio Premium con acceso ilimitado a todas las sedes' });
    await page.goto(`/pay/${link.token}`);
    await expectState(page, 'ready');
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await width()).toBeLessThanOrEqual(360);

    await expectHydrated(page);
    await payButton(page).click();
    await expect(page.getByLabel(LABELS.cardNumber)).toHaveAttribute('aria-invalid', 'true');
    expect(await width()).toBeLessThanOrEqual(360);

    await fillCard(page, { number: CARDS.insufficientFunds, holder: 'Ana Gómez' });
    await payButton(page).click();
    await expectState(page, 'declined');
    expect(await width()).toBeLessThanOrEqual(360);
  });
});

test.describe('unknown and malformed tokens', () => {
  for (const [what, token] of [
    ['unknown', 'ZZZZZZZZZZ'],
    ['too short', 'abc'],
    ['not base62', 'abc%24def12'],
    ['too long', 'abcdefghijk'],
  ] as const) {
    test(`a ${what} token gets the Spanish 404 page with the same headers`, async ({ page }) => {
      const res = await page.goto(`/pay/${token}`);
      expect(res?.status()).toBe(404);
      expectCheckoutHeaders(res!.headers());
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/No encontramos este link de pago/);
      await expect(page.locator('form')).toHaveCount(0);
      await expect(page.locator('[lang="es-CO"]').first()).toBeVisible();
    });
  }

  test('the 404 page has no serious accessibility violations', async ({ page }) => {
    await page.goto('/pay/ZZZZZZZZZZ');
    await expectAccessible(page);
  });
});

test.describe('language', () => {
  test('English with ?lang=en', async ({ page, createLink }) => {
    const link = await createLink();
    await page.goto(`/pay/${link.token}?lang=en`);
    await expectState(page, 'ready');
    await expect(checkoutRoot(page)).toHaveAttribute('lang', 'en');
    await expect(checkoutRoot(page)).toContainText('Monthly subscription');
    await expect(page.getByRole('button', { name: 'Pay $ 1.500' })).toBeVisible();
    await expect(page.getByLabel('Card number')).toHaveAttribute('name', 'cardNumber');
  });

  test.describe('with an English browser', () => {
    test.use({ locale: 'en-US' });

    test('English from Accept-Language, the 404 too, and ?lang=es wins', async ({ page, createLink }) => {
      const link = await createLink();
      await page.goto(`/pay/${link.token}`);
      await expect(page.getByRole('button', { name: 'Pay $ 1.500' })).toBeVisible();
      await page.goto(`/pay/${link.token}?lang=es`);
      await expect(payButton(page)).toBeVisible();
      await page.goto('/pay/ZZZZZZZZZZ');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/We could not find this payment link/);
    });
  });
});
