import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { CARDS, payNewLink } from './checkout-helpers';
import { expect, test } from './fixtures';
import { createKey, expectFits, signUp } from './portal-helpers';

// The portal a merchant opens every morning (issue 16): the Overview's figures against the plans
// and charges this journey makes, translated statuses, search and CSV exports, the test-mode band.
// Every portal page's fit and accessibility at 360, 1280 and 1920 px: portal-layout.spec.ts.

test.use({ locale: 'es-CO' });

/** A link made with the merchant's key, paid in the hosted checkout with `card`. */
async function paidLink(page: Page, authorization: string, ref: string, amount: number, card: string, state: 'approved' | 'declined') {
  const data = { customer: { phone: '+573001234567', email: `${ref}@example.com`, firstName: 'Ana' }, plan: { externalReference: ref, description: `Plan ${ref}`, amount } };
  return payNewLink(page, authorization, data, card, state);
}

async function download(page: Page, linkName: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: linkName }).click()]);
  return fs.readFileSync((await file.path())!, 'utf8');
}

test('the overview adds up what was sold, and lists and exports find it', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  const key = await createKey(page);
  const stamp = Date.now().toString(36);
  const a = await paidLink(page, key.authorization, `a-${stamp}`, 150000, CARDS.approved, 'approved');
  const b = await paidLink(page, key.authorization, `b-${stamp}`, 250000, CARDS.approved, 'approved');
  const c = await paidLink(page, key.authorization, `c-${stamp}`, 90000, CARDS.insufficientFunds, 'declined');

  await page.goto('/portal');
  await expect(page).toHaveURL(/\/portal\/overview$/);
  await expect(page.getByTestId('test-mode')).toContainText('Modo de prueba');
  await expect(page.getByTestId('stat-mrr')).toContainText('$ 4.000');
  await expect(page.getByTestId('stat-active')).toContainText('2');
  await expect(page.getByTestId('stat-new')).toContainText('3');
  await expect(page.getByTestId('stat-cancelled')).toContainText('0');
  await expect(page.getByTestId('stat-approval')).toContainText('66,7');
  await expect(page.getByTestId('revenue-total')).toHaveText('Total de 30 días: $ 4.000');
  await expect(page.getByRole('region', { name: 'Próximas renovaciones' }).getByRole('row')).toHaveCount(3);
  await page.getByRole('link', { name: 'Últimos 90 días' }).click();
  await expect(page.getByTestId('revenue-total')).toHaveText('Total de 90 días: $ 4.000');

  // Cancelling b takes it out of MRR and counts it as cancelled this month.
  const cancelled = await page.request.post(`/merchants/subscription-plans/${b}/cancel`, { headers: { Authorization: key.authorization } });
  expect(cancelled.status()).toBe(200);
  await page.goto('/portal/overview');
  await expect(page.getByTestId('stat-mrr')).toContainText('$ 1.500');
  await expect(page.getByTestId('stat-active')).toContainText('1');
  await expect(page.getByTestId('stat-cancelled')).toContainText('1');
  await expect(page.getByTestId('stat-cancelled')).toContainText('Cancelación del mes: 50');

  // Activity: statuses in Spanish, never the API's names.
  await page.goto('/portal/activity');
  const plans = page.getByRole('table', { name: 'Planes, del más reciente al más antiguo' });
  await expect(plans.getByRole('row').filter({ hasText: `a-${stamp}` })).toContainText('Activo');
  await expect(plans.getByRole('row').filter({ hasText: `b-${stamp}` })).toContainText('Cancelado');
  await expect(plans.getByRole('row').filter({ hasText: `c-${stamp}` })).toContainText('Pendiente de activación');
  await expect(plans).not.toContainText(/ACTIVE|CANCELLED|PENDING_ACTIVATION/);

  // Search by e-mail (any case), then the CSV holds exactly what is shown.
  await page.getByLabel('Buscar').fill(`A-${stamp}@EXAMPLE.com`);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(plans.getByRole('row')).toHaveCount(2);
  const plansCsv = (await download(page, 'Descargar CSV')).trim().split('\r\n');
  expect(plansCsv[0]).toBe(
    'subscriptionPlanId,externalReference,description,amount,currency,modality,status,customerEmail,nextChargeDate,createdAt,couponId,discountPercent,discountAmount,discountPeriods,discountPeriodsUsed',
  );
  expect(plansCsv).toHaveLength(2);
  expect(plansCsv[1]).toMatch(new RegExp(`^${a},a-${stamp},Plan a-${stamp},150000,COP,RECURRING,ACTIVE,a-${stamp}@example.com,\\d{4}-`));

  // Transactions: the declined charge by status, and its CSV.
  await page.goto('/portal/transactions?status=DECLINED');
  const txns = page.getByRole('table', { name: 'Transacciones, de la más reciente a la más antigua' });
  await expect(txns.getByRole('row')).toHaveCount(2);
  await expect(txns).toContainText('Rechazada');
  const txnCsv = (await download(page, 'Descargar CSV')).trim().split('\r\n');
  expect(txnCsv).toHaveLength(2);
  expect(txnCsv[1]).toMatch(new RegExp(`^txn_\\w+,${c},c-${stamp},c-${stamp}@example.com,INITIAL,DECLINED,90000,COP,CARD,1111,[^,]+,90000,0$`));
  const all = (await page.request.get('/portal/export/transactions')).text();
  expect((await all).trim().split('\r\n')).toHaveLength(4);

  // Without a session the exports answer 401.
  const anonymous = await page.context().browser()!.newContext();
  expect((await anonymous.request.get(`${new URL(page.url()).origin}/portal/export/plans`)).status()).toBe(401);
  await anonymous.close();
});

test('the public portal pages fit at 360 px and 1280 px too', async ({ page }) => {
  // Four loads, each checked by axe: over 30 s when CI's two cores are busy.
  test.setTimeout(90_000);
  for (const path of ['/portal/sign-in', '/portal/sign-up']) await expectFits(page, path, [360, 1280]);
});
