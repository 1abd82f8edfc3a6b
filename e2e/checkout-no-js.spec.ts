import { CARDS, expect, expectState, FUTURE_EXPIRY, LABELS, planStatus, test } from './checkout-helpers';

// The card form before (or without) JavaScript (docs/checkout.md): with JavaScript off, the form is
// a plain HTML form POST that the server handles, then the outcome page; card data travels in the
// POST body only, never in a URL.

test.use({ locale: 'es-CO', javaScriptEnabled: false });

async function fill(page: import('@playwright/test').Page, number: string, overrides: { cvc?: string } = {}) {
  await page.getByLabel(LABELS.cardNumber).fill(number);
  await page.getByLabel(LABELS.cardExpiry).fill(FUTURE_EXPIRY);
  await page.getByLabel(LABELS.cardCvc).fill(overrides.cvc ?? '123');
  await page.getByLabel(LABELS.cardHolder).fill('Ana Gómez');
}

/** Every URL the page asked for, and the bodies of its POSTs. */
function watch(page: import('@playwright/test').Page) {
  const urls: string[] = [];
  const posts: { url: string; body: string }[] = [];
  page.on('request', (req) => {
    urls.push(req.url());
    if (req.method() === 'POST') posts.push({ url: req.url(), body: req.postData() ?? '' });
  });
  return { urls, posts };
}

test('an approved card: a form POST, then the outcome page; the card never in a URL', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  const seen = watch(page);
  await page.goto(`/pay/${link.token}`);
  await expectState(page, 'ready');
  await fill(page, CARDS.approved);
  await page.getByRole('button', { name: /^Pagar/ }).click();

  await expect(page).toHaveURL(new RegExp(`/pay/${link.token}/payments/txn_[A-Za-z0-9]+$`));
  await expectState(page, 'approved');
  await expect(page.getByRole('status')).toContainText('¡Pago aprobado!');
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('ACTIVE');

  expect(seen.posts).toHaveLength(1);
  expect(new URL(seen.posts[0]!.url).pathname).toBe(`/pay/${link.token}/card`);
  expect(new URLSearchParams(seen.posts[0]!.body).get('cardNumber')).toBe(CARDS.approved);
  for (const url of [...seen.urls, page.url()]) {
    expect(decodeURIComponent(url.replace(/\+/g, ' '))).not.toContain(CARDS.approved);
    expect(url).not.toMatch(/[?&](cardNumber|cardExpiry|cardCvc|cardHolder)=/);
  }
});

test('a declined card shows why, and "Intentar de nuevo" leads back to the form', async ({ page, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await fill(page, CARDS.insufficientFunds);
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expectState(page, 'declined');
  await expect(page.getByRole('status')).toContainText('fondos insuficientes');
  await page.getByRole('link', { name: 'Intentar de nuevo' }).click();
  await expect(page).toHaveURL(new RegExp(`/pay/${link.token}$`));
  await expectState(page, 'ready');
});

test('a PENDING payment shows a page that refreshes itself until the bank decides', async ({ page, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await fill(page, CARDS.pendingThenApproved);
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expectState(page, 'processing');
  await expect(page.getByRole('status')).toContainText('Su banco está confirmando el pago');
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(1);
  // The sandbox decides after 3 s; the page reloads every 2 s without any script.
  await expectState(page, 'approved', 15_000);
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
});

test('a field the server refuses comes back marked on the form, without its value in the URL', async ({ page, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await fill(page, '4242 4242 4242 4241');
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expect(page).toHaveURL(new RegExp(`/pay/${link.token}\\?problem=card&fields=cardNumber$`));
  await expectState(page, 'ready');
  await expect(page.getByLabel(LABELS.cardNumber)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel(LABELS.cardNumber)).toHaveAccessibleDescription(/El número de la tarjeta no es válido/);
});
