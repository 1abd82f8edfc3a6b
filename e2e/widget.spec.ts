import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { CARDS, createShortLivedLink, expectState, fillCard, FUTURE_EXPIRY, LABELS, pay, payButton, planStatus } from './checkout-helpers';
import { BASE_URL, SHORT_LIVED_URL } from './fixtures';
import { checkoutMessages, expect, expectInteractive, successOf, test, widget, widgetEvents } from './widget-helpers';
import { acceptConsent, consentTokensSpent, useWompi } from './wompi-helpers';

// The embeddable widget (docs/checkout.md#embedding) on a merchant's page served from a second local origin:
// the callbacks a merchant relies on, the modal's behaviour, and what a page that is not allowed,
// a forged message or a bad token get.

test.use({ locale: 'es-CO' });

const GATEWAY_ID = /^\d+(-\d+)+$/;

test('an approved card: onSuccess carries the transaction the server approved; the modal closes back to its opener', async ({
  page,
  request,
  merchant,
  createLink,
  site,
}) => {
  const link = await createLink();
  await page.goto(site.url({ token: link.token }));
  const opener = page.getByRole('button', { name: 'Pagar suscripción' });
  await opener.click();

  const { dialog, frame } = widget(page);
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeFocused();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
  await expectState(frame, 'ready');
  await expectInteractive(frame);

  await pay(frame, { number: CARDS.approved });
  await expectState(frame, 'approved');
  await expect.poll(() => widgetEvents(page)).toHaveLength(1);
  const success = await successOf(page);
  expect(success).toEqual({ transactionId: expect.stringMatching(GATEWAY_ID), subscriptionPlanId: link.subscriptionPlanId, status: 'APPROVED' });
  const plan = await planStatus(request, merchant, link.subscriptionPlanId);
  expect(plan.lastTransaction?.status).toBe('APPROVED');
  expect(plan.lastTransaction?.gatewayTransactionId).toBe(success.transactionId);

  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await widgetEvents(page)).map(([k]) => k)).toEqual(['success', 'close']);
  await expect(opener).toBeFocused();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');
});

test('a Wompi merchant: the modal pays by card at Wompi, RECURRING and SINGLE, each attempt with its own acceptance tokens', async ({ page, request, admin, merchant, createLink, site }) => {
  const keys = await useWompi(request, admin, merchant.merchantId);
  for (const modality of ['RECURRING', 'SINGLE'] as const) {
    const link = await createLink({ modality });
    await page.goto(site.url({ token: link.token }));
    await page.getByRole('button', { name: 'Pagar suscripción' }).click();
    const { frame } = widget(page);
    await expectInteractive(frame);
    await fillCard(frame, { number: '4242 4242 4242 4242', holder: 'Ana Gómez' });
    await acceptConsent(frame);
    await payButton(frame).click();
    await expectState(frame, 'approved', 15_000);
    await expect.poll(() => widgetEvents(page)).toHaveLength(1);
    expect((await successOf(page)).status).toBe('APPROVED');
    expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe(modality === 'RECURRING' ? 'ACTIVE' : 'COMPLETED');
  }
  const spent = await consentTokensSpent(request, keys.privateKey);
  expect(spent).toHaveLength(4);
  expect(new Set(spent).size).toBe(4);
});

test('declined, then approved with another card in the same modal', async ({ page, createLink, site }) => {
  const link = await createLink();
  await page.goto(site.url({ token: link.token }));
  await page.getByRole('button', { name: 'Pagar suscripción' }).click();
  const { frame } = widget(page);
  await expectInteractive(frame);

  await pay(frame, { number: CARDS.insufficientFunds });
  await expectState(frame, 'declined');
  await pay(frame, { number: CARDS.approved });
  await expectState(frame, 'approved');

  await expect.poll(() => widgetEvents(page)).toHaveLength(2);
  const [declined] = await widgetEvents(page);
  expect(declined).toEqual([
    'error',
    { code: 'declined', message: expect.any(String), transactionId: expect.stringMatching(GATEWAY_ID) },
  ]);
  expect((await successOf(page)).transactionId).not.toBe(declined![1]!.transactionId);
});

test('a pending payment: no callback and no closing until it settles, then onSuccess', async ({ page, request, merchant, createLink, site }) => {
  const link = await createLink();
  await page.goto(site.url({ token: link.token }));
  await page.getByRole('button', { name: 'Pagar suscripción' }).click();
  const { dialog, frame } = widget(page);
  await expectInteractive(frame);

  await pay(frame, { number: CARDS.pendingThenApproved });
  await expectState(frame, 'processing');
  const close = dialog.getByRole('button', { name: 'Cerrar' });
  await expect(close).toHaveAttribute('aria-disabled', 'true');
  // As a customer would, whatever the button looks like (Playwright waits for it to be enabled).
  await close.click({ force: true });
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  expect(await widgetEvents(page)).toEqual([]);

  await expectState(frame, 'approved', 15_000);
  await expect.poll(() => widgetEvents(page)).toHaveLength(1);
  const success = await successOf(page);
  const plan = await planStatus(request, merchant, link.subscriptionPlanId);
  expect(plan.lastTransaction?.gatewayTransactionId).toBe(success.transactionId);

  await close.click();
  await expect(dialog).toHaveCount(0);
  expect((await widgetEvents(page)).map(([k]) => k)).toEqual(['success', 'close']);
});

test('Escape and a click outside close the modal, each with one onClose', async ({ page, createLink, site }) => {
  const link = await createLink();
  await page.goto(site.url({ token: link.token }));
  const opener = page.getByRole('button', { name: 'Pagar suscripción' });
  const { dialog, frame } = widget(page);

  await opener.click();
  await expectState(frame, 'ready');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();

  await opener.click();
  await expectState(frame, 'ready');
  await page.mouse.click(5, 5);
  await expect(dialog).toHaveCount(0);
  expect(await widgetEvents(page)).toEqual([['close'], ['close']]);
});

test('on a 360 px phone the modal fills the screen, in English on an English page', async ({ page, createLink, site }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const link = await createLink();
  await page.goto(site.url({ token: link.token, lang: 'en' }));
  await page.getByRole('button', { name: 'Pagar suscripción' }).click();
  const { dialog, frame } = widget(page, 'Secure payment');
  await expectState(frame, 'ready');
  await expect(frame.getByLabel('Card number')).toBeVisible();
  const box = await page.locator('dialog > div').boundingBox();
  expect(box).toEqual({ x: 0, y: 0, width: 360, height: 640 });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('keyboard only: open, pay, and Escape from inside the checkout', async ({ page, createLink, site }) => {
  const link = await createLink();
  await page.goto(site.url({ token: link.token }));
  const opener = page.getByRole('button', { name: 'Pagar suscripción' });
  await page.keyboard.press('Tab');
  await expect(opener).toBeFocused();
  await page.keyboard.press('Enter');

  const { dialog, frame } = widget(page);
  await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeFocused();
  await expectInteractive(frame);
  const number = frame.getByLabel(LABELS.cardNumber);
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    if (await number.evaluate((el) => el === document.activeElement && document.hasFocus())) break;
  }
  await expect(number).toBeFocused();
  await page.keyboard.type(CARDS.approved);
  await page.keyboard.press('Tab');
  await page.keyboard.type(FUTURE_EXPIRY);
  await page.keyboard.press('Tab');
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');
  await expectState(frame, 'approved');
  await expect.poll(async () => (await widgetEvents(page)).map(([k]) => k)).toEqual(['success']);

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  expect((await widgetEvents(page)).map(([k]) => k)).toEqual(['success', 'close']);
});

test('a forged success message, from the page itself or from another window of our origin, is ignored', async ({ page, createLink, site }) => {
  const link = await createLink();
  await page.goto(site.url({ token: link.token }));
  await page.getByRole('button', { name: 'Pagar suscripción' }).click();
  const { dialog, frame } = widget(page);
  await expectState(frame, 'ready');
  const forged = { type: 'servicepay:checkout', state: 'approved', transactionId: '1-2-3', subscriptionPlanId: link.subscriptionPlanId };

  await page.evaluate((message) => window.postMessage(message, '*'), forged);
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.evaluate((url) => void window.open(url), `${BASE_URL}/`)]);
  await popup.evaluate(({ message, target }) => window.opener.postMessage(message, target), { message: forged, target: site.origin });
  // Both reached the page (its own listener saw them), and the widget did nothing with them.
  await expect.poll(async () => (await checkoutMessages(page)).filter((m) => (m.data as { transactionId?: string }).transactionId === '1-2-3')).toHaveLength(2);
  await popup.close();
  expect(await widgetEvents(page)).toEqual([]);
  await expect(dialog).toBeVisible();
  await expectState(frame, 'ready');
});

test.describe('a merchant page not in allowedDomains', () => {
  test.use({ allowedDomains: ['shop.example.com'] });

  test('the browser refuses the frame; onError not_found and nothing else reaches the page', async ({ page, request, createLink, site, cspViolations }) => {
    const link = await createLink();
    const res = await request.get(`/pay/${link.token}?embed=1&origin=${encodeURIComponent(site.origin)}`);
    expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'self' shop.example.com");

    await page.goto(site.url({ token: link.token }));
    await page.getByRole('button', { name: 'Pagar suscripción' }).click();
    await expect.poll(() => widgetEvents(page)).toEqual([['error', { code: 'not_found', message: expect.any(String) }]]);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await checkoutMessages(page)).toEqual([]);
    // The refusal is the browser's own, reported as a frame-ancestors violation.
    expect(cspViolations.some((v) => /frame-ancestors/.test(v))).toBe(true);
    cspViolations.length = 0;
  });
});

test('frame-ancestors: the merchant\'s list on every response of the link, embedded or not; only our origin for an unknown token', async ({
  request,
  createLink,
  site,
}) => {
  const link = await createLink();
  const expected = `frame-ancestors 'self' ${site.host}`;
  for (const path of [`/pay/${link.token}`, `/pay/${link.token}?embed=1`, `/pay/${link.token}?embed=1&origin=https%3A%2F%2Fevil.example`]) {
    const csp = (await request.get(path)).headers()['content-security-policy'] ?? '';
    expect(csp.split('; ')).toContain(expected);
  }
  const unknown = await request.get('/pay/AAAAAAAAAA?embed=1');
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()['content-security-policy']?.split('; ')).toContain("frame-ancestors 'self'");
});

test('open without a token, or with a malformed or unknown one: onError and no modal left behind', async ({ page, site, cspViolations }) => {
  await page.goto(site.url({ token: null }));
  await page.getByRole('button', { name: 'Pagar suscripción' }).click();
  await page.evaluate(() => (window as unknown as { openCheckout: (t?: string) => void }).openCheckout());
  await page.evaluate(() => window.ServicePay!.open({ token: 'abc', onError: (e) => (window as unknown as { events: unknown[] }).events.push(['error', e]) }));
  await expect.poll(() => widgetEvents(page)).toHaveLength(3);
  for (const [kind, error] of await widgetEvents(page)) {
    expect(kind).toBe('error');
    expect(error).toEqual({ code: 'invalid_token', message: expect.any(String) });
  }
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.goto(site.url({ token: 'AAAAAAAAAA' }));
  await page.getByRole('button', { name: 'Pagar suscripción' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('status')).toHaveText('Cargando…');
  await expect.poll(() => widgetEvents(page)).toEqual([['error', { code: 'not_found', message: expect.any(String) }]]);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // An unknown token has no merchant: only our own origin may frame its 404.
  cspViolations.splice(0, cspViolations.length, ...cspViolations.filter((v) => !/frame-ancestors/.test(v)));
});

test('an expired link: onError session_expired, and the modal explains it', async ({ page, request, site }) => {
  const link = await createShortLivedLink(request, { allowedDomains: [site.host] });
  await link.waitUntilExpired();
  await page.goto(site.url({ token: link.token, app: SHORT_LIVED_URL }));
  await page.getByRole('button', { name: 'Pagar suscripción' }).click();
  const { dialog, frame } = widget(page);
  await expectState(frame, 'expired');
  await expect.poll(() => widgetEvents(page)).toEqual([['error', { code: 'session_expired', message: expect.any(String) }]]);
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await widgetEvents(page)).map(([k]) => k)).toEqual(['error', 'close']);
});

test('the script loaded twice and open called twice: one modal, one set of callbacks', async ({ page, createLink, site }) => {
  const link = await createLink();
  await page.goto(site.url({ token: link.token, twice: true }));
  const same = await page.evaluate(() => {
    const w = window as unknown as { openCheckout: () => unknown };
    return w.openCheckout() === w.openCheckout();
  });
  expect(same).toBe(true);
  const { dialog, frame } = widget(page);
  await expect(page.locator('dialog')).toHaveCount(1);
  await expect(page.locator('dialog iframe')).toHaveCount(1);
  await expectState(frame, 'ready');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await widgetEvents(page)).toEqual([['close']]);
});

test('the script: under 2 KB gzipped, cached for a day with its content hash; its types served as text', async ({ request }) => {
  const script = await request.get('/widget.js');
  expect(script.status()).toBe(200);
  const body = await script.body();
  expect(gzipSync(body, { level: 9 }).length).toBeLessThan(2048);
  expect(script.headers()['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
  expect(script.headers()['x-widget-version']).toBe(createHash('sha256').update(body).digest('hex').slice(0, 16));

  const types = await request.get('/widget.d.ts');
  expect(types.headers()['content-type']).toBe('text/plain; charset=utf-8');
  expect(await types.text()).toContain('export interface ServicePayWidget');
});
