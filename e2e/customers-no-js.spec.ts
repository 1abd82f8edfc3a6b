import { CARDS, expect, expectState, FUTURE_EXPIRY, LABELS, planStatus, test } from './checkout-helpers';

// The customer's manage page with JavaScript off, on a 360 px phone (docs/customers.md#the-manage-page):
// the page sends no referrer, so Chromium posts its forms with `Origin: null`; they still replace
// the card and cancel. Unknown links show their message in the HTML itself.

test.use({ locale: 'es-CO', javaScriptEnabled: false, viewport: { width: 360, height: 740 } });

async function noSidewaysScroll(page: import('@playwright/test').Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

async function fillCard(page: import('@playwright/test').Page, number: string) {
  await page.getByLabel(LABELS.cardNumber).fill(number);
  await page.getByLabel(LABELS.cardExpiry).fill(FUTURE_EXPIRY);
  await page.getByLabel(LABELS.cardCvc).fill('123');
  await page.getByLabel(LABELS.cardHolder).fill('Ana Gómez');
}

test('without JavaScript at 360 px a customer replaces the card and cancels the plan', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  await page.goto(`/pay/${link.token}`);
  await fillCard(page, CARDS.approved);
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expectState(page, 'approved');

  const made = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: merchant.authorization } });
  expect(made.status()).toBe(201);
  const { url } = await made.json();
  const posts: { url: string; origin: string | undefined }[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') posts.push({ url: r.url(), origin: r.headers().origin });
  });

  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Su suscripción');
  await noSidewaysScroll(page);

  // A new card: the form posts to the page's route, with Origin null, and comes back saying so.
  await fillCard(page, CARDS.approved);
  await page.getByRole('button', { name: 'Guardar tarjeta' }).click();
  await expect(page.getByRole('status')).toHaveText('Listo: guardamos su nuevo medio de pago.');
  expect(new URL(page.url()).search).toBe('?done=method');
  expect(posts.at(-1)).toEqual({ url: `${url}/method`, origin: 'null' });

  // A card the sandbox declines changes nothing, and the page says what to do.
  await fillCard(page, CARDS.insufficientFunds);
  await page.getByRole('button', { name: 'Guardar tarjeta' }).click();
  await expect(page.getByRole('alert')).toHaveText('El medio de pago fue rechazado. Pruebe con otro.');

  // Cancel, after the confirmation step.
  await page.getByRole('link', { name: 'O cancelar ahora mismo' }).click();
  await expect(page.getByRole('heading', { name: '¿Seguro que desea cancelar?' })).toBeVisible();
  await noSidewaysScroll(page);
  await page.getByRole('button', { name: 'Sí, cancelar la suscripción' }).click();
  await expect(page.getByRole('status')).toContainText('Su suscripción fue cancelada.');
  await expect(page.getByTestId('manage-status')).toHaveText('Cancelada');
  await noSidewaysScroll(page);
  expect(posts.at(-1)).toEqual({ url: `${url}/cancel`, origin: 'null' });
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('CANCELLED');
});

test('a SINGLE plan never paid: its amount has no period, and cancelling it promises no e-mail', async ({ page, request, merchant, createLink }) => {
  const link = await createLink({ modality: 'SINGLE' });
  const made = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: merchant.authorization } });
  await page.goto((await made.json()).url);
  await expect(page.locator('dt', { hasText: /^Valor/ })).toHaveText('Valor');
  await expect(page.getByTestId('manage-amount')).toHaveText('$ 1.500');
  await page.getByRole('link', { name: 'Cancelar suscripción' }).click();
  await page.getByRole('button', { name: 'Sí, cancelar la suscripción' }).click();
  await expect(page.getByRole('status')).toHaveText('Su suscripción fue cancelada. Nunca se hizo un cobro, así que no hay nada más que hacer.');
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('CANCELLED');
});

test('a form post from another site is refused with 403 and changes nothing', async ({ request, merchant, createLink }) => {
  const link = await createLink();
  const made = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: merchant.authorization } });
  const { url } = await made.json();
  const res = await request.post(`${url}/cancel`, { headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }, form: { lang: 'es' } });
  expect(res.status()).toBe(403);
  expect(await res.text()).toContain('No se hizo ningún cambio');
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('PENDING_ACTIVATION');
});

test('a Server Action posted from another origin is a 403, not a 500', async ({ page, request }) => {
  // The sign-in form as the page renders it without JavaScript: its hidden Server Action fields.
  await page.goto('/portal/sign-in');
  const hidden = await page.locator('form input[type="hidden"]').evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value]));
  const fields = Object.fromEntries(hidden);
  const id = JSON.parse(fields['$ACTION_1:0']).id as string;
  for (const origin of ['https://evil.example', 'null']) {
    const formAction = await request.post('/portal/sign-in', { headers: { Origin: origin }, multipart: { ...fields, email: 'a@b.co', password: 'x' } });
    expect(formAction.status(), origin).toBe(403);
    const fetchAction = await request.post('/portal/sign-in', { headers: { Origin: origin, 'Next-Action': id, 'Content-Type': 'text/plain;charset=UTF-8' }, data: '[]' });
    expect(fetchAction.status(), origin).toBe(403);
  }
  // From the page itself the same form is taken (and answers that the sign-in failed).
  const own = await request.post('/portal/sign-in', { headers: { Origin: new URL(page.url()).origin }, multipart: { ...fields, email: 'a@b.co', password: 'x' } });
  expect(own.status()).toBe(200);
});

test('unknown manage and payment links show their message in the HTML, without JavaScript', async ({ page }) => {
  const manage = await page.goto(`/manage/mng_${'A'.repeat(40)}`);
  expect(manage?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Este enlace no es válido o ya venció');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es-CO');
  await noSidewaysScroll(page);

  const english = await page.goto(`/manage/not-a-token?lang=en`);
  expect(english?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link is not valid or has expired');

  const pay = await page.goto('/pay/unknown-token');
  expect(pay?.status()).toBe(404);
  await expect(page.getByText('No encontramos este link de pago')).toBeVisible();
  expect(pay?.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
  await noSidewaysScroll(page);
});
