import { expect, test } from './fixtures';
import { LATEST_API_VERSION } from '../lib/api-versions';

// The API reference at /docs (Scalar, served from our own origin): it renders the OpenAPI
// document, and nothing it loads comes from anywhere but the test server.

// Scalar renders every operation of the document in the browser, seconds after the title and far
// longer beside the other journeys: one journey waits for that render, the version switch only
// for the document Scalar loads.
const RENDERED = { timeout: 45_000 };

test('the API reference renders the document without a request leaving the origin', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const origin = new URL(baseURL!).origin;
  const requested: string[] = [];
  const cspViolations: string[] = [];
  page.context().on('request', (request) => requested.push(request.url()));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  // Anything bound elsewhere is refused here too, so a slip cannot reach the network.
  await page.route(
    (url) => url.origin !== origin,
    (route) => route.abort('blockedbyclient'),
  );

  const response = await page.goto('/docs');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

  // The title is Scalar's too (the document's info.title), drawn in the same render.
  await expect(page.getByRole('heading', { level: 1, name: 'ServicePay' })).toBeVisible(RENDERED);
  await expect(page.getByRole('heading', { name: 'Create a payment link' })).toBeVisible(RENDERED);
  await expect(page.getByText('/merchants/subscription-link').first()).toBeVisible();
  await expect(page.getByText('Bearer $API_KEY:$API_SECRET').first()).toBeVisible();

  expect(requested).toContain(`${origin}/api/openapi.json?version=${LATEST_API_VERSION}`);
  expect(requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
  expect(cspViolations).toEqual([]);
});

test('the reference of each API version is one link away, and loads that version', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  // Which document Scalar asks for is checked here, its render in the journey above: an empty
  // document keeps this one from waiting on two renders of the whole reference.
  await page.route(
    (url) => url.pathname === '/api/openapi.json',
    (route) => route.fulfill({ json: { openapi: '3.1.0', info: { title: 'ServicePay', version: 'test' }, paths: {} } }),
  );
  await page.goto('/docs');
  const versioned = page.waitForRequest(`${origin}/api/openapi.json?version=2026-11-20`);
  await page.getByRole('navigation', { name: 'API versions' }).getByRole('link', { name: '2026-11-20' }).click();
  await expect(page).toHaveURL(/\/docs\?version=2026-11-20$/);
  await expect(page.getByRole('link', { name: '2026-11-20' })).toHaveAttribute('aria-current', 'page');
  await versioned;
  expect((await page.request.get('/docs?version=2020-01-01')).status()).toBe(400);
});

test('the OpenAPI document is served as cacheable JSON naming this server', async ({ request, baseURL }) => {
  const res = await request.get('/api/openapi.json');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/json/);
  expect(res.headers()['cache-control']).toBe('public, max-age=300');
  const document = await res.json();
  expect(document.openapi).toBe('3.1.0');
  expect(document.servers).toEqual([{ url: baseURL, description: 'This deployment' }]);
  expect(Object.keys(document.paths)).toContain('/merchants/subscription-link');
});
