import { expect, test } from './fixtures';
import { formAlert, formWith, signUp } from './portal-helpers';

// Cupones in the portal (docs/portal.md#coupons) without JavaScript: a merchant creates a coupon,
// a refused one names its fields, the list shows it, and deleting it takes it off the list.

test.use({ locale: 'es-CO', javaScriptEnabled: false });

test('creates, lists and deletes a coupon with plain form posts', async ({ page }) => {
  // Sign-up and five page loads on a loaded machine.
  test.setTimeout(90_000);
  await signUp(page);
  await page.goto('/portal/coupons');
  await expect(page.getByRole('heading', { level: 1, name: 'Cupones' })).toBeVisible();
  await expect(page.getByText('Aún no tiene cupones.')).toBeVisible();

  const code = page.getByLabel('Código (opcional)');
  await code.fill('bienvenida20');
  await page.getByLabel('Valor del descuento').fill('100');
  await page.getByRole('button', { name: 'Crear cupón' }).click();
  await expect(formAlert(page)).toContainText('Valor del descuento: must be 1 to 99');

  await page.getByLabel('Código (opcional)').fill('bienvenida20');
  await page.getByLabel('Valor del descuento').fill('20');
  await page.getByLabel('Duración').selectOption('repeating');
  await page.getByLabel('Número de cobros (para «Varios cobros»)').fill('3');
  await page.getByLabel('Usos máximos (opcional)').fill('50');
  await page.getByRole('button', { name: 'Crear cupón' }).click();
  await expect(formWith(page, page.getByLabel('Código (opcional)')).getByRole('status')).toHaveText('Listo: el cupón BIENVENIDA20 quedó creado.');

  await page.goto('/portal/coupons');
  const table = page.getByRole('table', { name: 'Sus cupones' });
  await expect(table).toContainText('BIENVENIDA20');
  await expect(table).toContainText('20 %');
  await expect(table).toContainText('3 cobros');
  await expect(table).toContainText('0 / 50');
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page.getByRole('button', { name: /^Eliminar/ }).click();
  await page.goto('/portal/coupons');
  await expect(page.getByText('Aún no tiene cupones.')).toBeVisible();
});
