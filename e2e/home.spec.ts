import { expectAccessible } from './accessibility';
import { expect, test } from './fixtures';

test('the home page introduces ServicePay in Spanish (es-CO)', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'ServicePay' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es-CO');
});

test('the home page has no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expectAccessible(page);
});

test('health answers 200 with the database up (docs/operations.md#health)', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok', db: 'ok' });
});

test.describe('operator API (docs/operations.md#operator-api)', () => {
  test('creates a merchant with test credentials', async ({ admin }) => {
    const res = await admin.post('/admin/merchants', { data: { name: 'Tienda E2E' } });
    expect(res.status()).toBe(201);
    const merchant = await res.json();
    expect(merchant).toMatchObject({
      merchantId: expect.stringMatching(/^mch_[0-9A-Za-z]{24}$/),
      name: 'Tienda E2E',
      apiKey: expect.stringMatching(/^pk_test_[0-9A-Za-z]{24}$/),
      apiSecret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{32}$/),
      webhookSecret: expect.stringMatching(/^whsec_/),
    });
  });

  test('refuses a missing or wrong token with 401', async ({ request }) => {
    const missing = await request.post('/admin/merchants', { data: { name: 'Sin token' } });
    expect(missing.status()).toBe(401);
    expect((await missing.json()).error.code).toBe('unauthorized');

    const wrong = await request.post('/admin/merchants', {
      data: { name: 'Token errado' },
      headers: { Authorization: 'Bearer not-the-operator-token' },
    });
    expect(wrong.status()).toBe(401);
  });
});

test('small API replies reach a gzip-accepting client uncompressed, large ones gzipped (docs/api.md#conventions)', async ({ request }) => {
  const headers = { 'Accept-Encoding': 'gzip, deflate' };
  const encoding = (res: Awaited<ReturnType<typeof request.get>>) =>
    `${res.status()} ${res.headers()['content-encoding'] ?? 'identity'} ${res.headers()['cache-control']}`;
  const unauthorized = await request.get('/merchants/plans/plan_x/status', { headers });
  expect(unauthorized.headers()['www-authenticate']).toBe('Bearer');
  expect((await unauthorized.json()).error.code).toBe('unauthorized');
  expect({
    '401': encoding(unauthorized),
    health: encoding(await request.get('/api/health', { headers })),
    'OpenAPI document (over 1 KiB)': encoding(await request.get('/api/openapi.json', { headers })),
  }).toEqual({
    '401': '401 identity no-store, no-transform',
    health: '200 identity no-store, no-transform',
    'OpenAPI document (over 1 KiB)': '200 gzip public, max-age=300',
  });
});

test('every kind of response carries X-Content-Type-Options: nosniff (lib/http/request-guard.ts)', async ({ request }) => {
  const home = await request.get('/');
  const script = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(await home.text())?.[1];
  expect(script).toBeTruthy();
  const responses = {
    page: home,
    'API JSON 401': await request.get('/merchants/plans/plan_x/status'),
    'public file': await request.get('/widget.js'),
    'build asset': await request.get(script!),
    'not-found page': await request.get('/no-such-page'),
    'checkout 404 (proxy)': await request.get('/pay/no-such-token'),
    'proxy 400 (unreadable form)': await request.post('/', { headers: { 'Content-Type': 'multipart/form-data; boundary=x' }, data: 'not multipart' }),
    'guard 405': await request.fetch('/api/health', { method: 'TRACE' }),
  };
  const statuses = Object.fromEntries(Object.entries(responses).map(([kind, res]) => [kind, `${res.status()} ${res.headers()['x-content-type-options']}`]));
  expect(statuses).toEqual({
    page: '200 nosniff',
    'API JSON 401': '401 nosniff',
    'public file': '200 nosniff',
    'build asset': '200 nosniff',
    'not-found page': '404 nosniff',
    'checkout 404 (proxy)': '404 nosniff',
    'proxy 400 (unreadable form)': '400 nosniff',
    'guard 405': '405 nosniff',
  });
});
