import type { Page } from '@playwright/test';
import { CARDS, payNewLink } from './checkout-helpers';
import { expect, test } from './fixtures';
import { createKey, expectFits, signUp } from './portal-helpers';

// The portal's layout with real-world data (docs/portal.md#layout): 60-character references,
// e-mails and descriptions in every column, at 360, 1280 and 1920 px, never scrolling sideways;
// a navigation that stays put (a sidebar on a desktop, a menu that opens without JavaScript on a
// phone); empty states that say what to do next; the chart's placeholder; and a search for
// references that look like an e-mail or a plan id, with its CSV.

test.use({ locale: 'es-CO' });

const pad = (text: string, length: number, fill: string) => text + fill.repeat(Math.max(0, length - text.length));

/** A link with 60-character values everywhere, paid with `card` in the hosted checkout. */
async function longLink(page: Page, authorization: string, reference: string, email: string, card: string, state: 'approved' | 'declined') {
  const data = { customer: { phone: '+573001234567', email, firstName: 'Ana' }, plan: { externalReference: reference, description: pad('Plan con envío a domicilio ', 60, 'x'), amount: 123456700 } };
  return payNewLink(page, authorization, data, card, state);
}

/** A signed-up merchant's key and 60-character references and e-mails of its own. */
async function longValues(page: Page) {
  await signUp(page);
  const key = await createKey(page);
  const stamp = Date.now().toString(36);
  const email = (p: string) => `${pad(`${p}-${stamp}-`, 48, 'e')}@example.com`;
  const values = { key, atRef: pad(`pedido@tienda-norte-${stamp}-`, 60, 'r'), subRef: pad(`sub_2026_renovacion_${stamp}_`, 60, 'r'), email };
  expect([values.atRef.length, values.subRef.length, email('a').length]).toEqual([60, 60, 60]);
  return values;
}

test('60-character references are found and exported: one with an "@", one that starts like a plan id', async ({ page }) => {
  const { key, atRef, subRef, email } = await longValues(page);
  const paid = await longLink(page, key.authorization, atRef, email('a'), CARDS.approved, 'approved');
  await longLink(page, key.authorization, subRef, email('b'), CARDS.insufficientFunds, 'declined');

  await page.goto(`/portal/activity?q=${encodeURIComponent(atRef)}`);
  const plans = page.getByRole('table', { name: 'Planes, del más reciente al más antiguo' });
  await expect(plans.getByRole('row')).toHaveCount(2);
  const csv = await (await page.request.get(`/portal/export/plans?q=${encodeURIComponent(atRef)}`)).text();
  expect(csv.trim().split('\r\n')).toHaveLength(2);
  expect(csv).toContain(`${paid},${atRef},`);
  await page.goto(`/portal/transactions?q=${encodeURIComponent(subRef)}`);
  await expect(page.getByRole('table', { name: 'Transacciones, de la más reciente a la más antigua' }).getByRole('row')).toHaveCount(2);
  const txnCsv = await (await page.request.get(`/portal/export/transactions?q=${encodeURIComponent(subRef)}`)).text();
  expect(txnCsv.trim().split('\r\n')).toHaveLength(2);
});

/** 1920 px is the 1280 px layout, wider: checked for fit; axe runs once per layout. */
const LAYOUTS = { widths: [360, 1280, 1920], axeAt: [360, 1280] };

test('60-character values in every column: no list or plan page scrolls sideways at 360, 1280 or 1920 px', async ({ page }) => {
  test.setTimeout(180_000);
  const { key, atRef, email } = await longValues(page);
  const paid = await longLink(page, key.authorization, atRef, email('a'), CARDS.approved, 'approved');
  for (const path of ['/portal/overview', '/portal/overview?days=90', '/portal/activity', '/portal/transactions', `/portal/activity/plans/${paid}`]) {
    await expectFits(page, path, LAYOUTS.widths, { axeAt: LAYOUTS.axeAt });
    await expect(page.getByTestId('test-mode')).toBeVisible();
  }
});

test('the settings pages fit at 360, 1280 and 1920 px', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  await createKey(page);
  for (const path of ['/portal/settings/api', '/portal/settings/webhooks', '/portal/settings/processor']) {
    await expectFits(page, path, LAYOUTS.widths, { axeAt: LAYOUTS.axeAt });
    await expect(page.getByTestId('test-mode')).toBeVisible();
  }
});

test('the navigation stays put: a sidebar on a desktop, a menu that opens without JavaScript on a phone', async ({ page, browser }) => {
  await signUp(page);
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto('/portal/settings/webhooks');
  const nav = page.getByRole('navigation', { name: 'Secciones del portal' });
  await expect(nav.getByRole('link', { name: 'Transacciones' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Webhooks', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.mouse.wheel(0, 5000);
  await expect(nav.getByRole('link', { name: 'Resumen' })).toBeInViewport();

  const phone = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 }, locale: 'es-CO', storageState: await page.context().storageState() });
  const small = await phone.newPage();
  await small.goto(`${new URL(page.url()).origin}/portal/activity`);
  const menu = small.getByText('Menú', { exact: true });
  await expect(menu).toBeVisible();
  await expect(small.getByRole('link', { name: 'Transacciones' })).toBeHidden();
  await menu.click();
  await expect(small.getByRole('link', { name: 'Transacciones' })).toBeVisible();
  // It closes as it opened, without JavaScript.
  await menu.click();
  await expect(small.getByRole('link', { name: 'Transacciones' })).toBeHidden();
  await menu.click();
  await small.getByRole('link', { name: 'Transacciones' }).click();
  await expect(small.getByRole('heading', { level: 1 })).toHaveText('Transacciones');
  // The empty list says what to do next, with or without a search.
  await expect(small.getByTestId('empty-list')).toContainText('Aún no hay transacciones');
  await small.goto(`${new URL(page.url()).origin}/portal/activity?q=nada-por-aqui`);
  await expect(small.getByTestId('empty-list')).toContainText('Nada coincide con esta búsqueda');
  await small.getByRole('link', { name: 'Quitar los filtros' }).click();
  await expect(small.getByTestId('empty-list')).toContainText('Aún no hay planes');
  // Without JavaScript the chart's place says where its figures are.
  await small.goto(`${new URL(page.url()).origin}/portal/overview`);
  await expect(small.getByTestId('chart-loading')).toContainText('Las mismas cifras están en la tabla de abajo');
  await phone.close();

  // With JavaScript the chart replaces its placeholder.
  await page.goto('/portal/overview');
  await expect(page.locator('.chart svg.recharts-surface')).toBeVisible();
  await expect(page.getByTestId('chart-loading')).toHaveCount(0);
});
