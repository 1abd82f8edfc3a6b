import type { APIRequestContext, Page } from '@playwright/test';
import { expectAccessible, expectState } from './checkout-helpers';
import { expect, test } from './fixtures';
import { mailTo } from './mailbox';
import { createKey, signUp } from './portal-helpers';

// Refund due (docs/billing.md#refund-due), end to end: a renewal link paid by PSE while the merchant
// pauses the plan is approved late; the customer is told to claim it, the status API says
// refundDue, and the merchant marks it refunded in the portal with JavaScript off.

// The operator's clock (POST /admin/billing/run) moves every plan of the server.
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'es-CO' });

const DAY = 86_400_000;
const MINUTE = 60_000;

/** Fills the PSE form at the sandbox's approving bank and sends it. */
async function sendPse(page: Page) {
  await page.getByRole('radio', { name: /PSE/ }).check();
  await page.getByLabel('Banco', { exact: true }).selectOption({ label: 'Banco que aprueba (sandbox)' });
  await page.getByLabel('Número de documento').fill('1020304050');
  await page.getByLabel('Nombre completo o razón social').fill('Ana Gómez');
  await page.getByRole('button', { name: 'Continuar al banco' }).click();
}

async function subscriptionLink(request: APIRequestContext, authorization: string) {
  const stamp = Date.now().toString(36);
  const email = `devolucion-${stamp}@example.com`;
  const res = await request.post('/merchants/subscription-link', {
    headers: { Authorization: authorization },
    data: { customer: { phone: '+573001234567', email, firstName: 'Ana' }, plan: { externalReference: `e2e-refund-${stamp}`, description: 'Plan Gimnasio', amount: 150000 } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const link = await res.json();
  return { email, url: link.url as string, planId: link.subscriptionPlanId as string };
}

/** The status reply's lastTransaction, in the merchant's version (the newest). */
async function lastTransaction(request: APIRequestContext, authorization: string, planId: string) {
  const res = await request.get(`/merchants/plans/${planId}/status`, { headers: { Authorization: authorization } });
  expect(res.status()).toBe(200);
  return (await res.json()).lastTransaction as Record<string, unknown> & { subscriptionTransactionId: string; status: string; gatewayTransactionId: string | null };
}

test('a late PSE renewal payment is refund due until the merchant marks it refunded, without JavaScript', async ({ page, request, admin, browser }) => {
  test.setTimeout(120_000);
  await signUp(page);
  const merchant = await createKey(page);
  const { email, url, planId } = await subscriptionLink(request, merchant.authorization);

  // Paid by PSE, the plan renews by link: reminderDays (3) before the due date the link is e-mailed.
  await page.goto(url);
  await sendPse(page);
  await expectState(page, 'approved', 15_000);
  const record = await (await request.get(`/merchants/subscription-plans/${planId}`, { headers: { Authorization: merchant.authorization } })).json();
  const run = await admin.post('/admin/billing/run', { data: { now: (record.nextChargeDate as number) - 3 * DAY + MINUTE } });
  expect(run.status(), await run.text()).toBe(200);
  const [, reminder] = await mailTo(email, 2);
  const renewalUrl = /http:\/\/127\.0\.0\.1:\d+\/pay\/[0-9A-Za-z]{10}\b/.exec(reminder!.text ?? '')![0];

  // The customer pays it at the bank; while the payment is pending there, the merchant pauses the plan.
  await page.goto(renewalUrl);
  await sendPse(page);
  await expect.poll(async () => (await lastTransaction(request, merchant.authorization, planId))?.status).toBe('PENDING');
  const pending = await lastTransaction(request, merchant.authorization, planId);
  const paused = await request.post(`/merchants/subscription-plans/${planId}/pause`, { headers: { Authorization: merchant.authorization } });
  expect(paused.status(), await paused.text()).toBe(200);
  // Back from the bank, the page follows the payment and learns it was approved after the pause.
  await page.goto(`${renewalUrl}?payment=${pending.subscriptionTransactionId}`);
  await expectState(page, 'unavailable');
  await expect(page.getByRole('status')).toContainText('pídale a Gimnasio Norte la devolución');
  const late = await lastTransaction(request, merchant.authorization, planId);
  expect(late).toMatchObject({ status: 'APPROVED', refundDue: true });

  // The merchant sees it flagged on Transacciones (axe clean) and, with JavaScript off, marks it refunded.
  await page.goto('/portal/transactions');
  await expect(page.getByTestId('refunds-due')).toBeVisible();
  await expectAccessible(page);
  const noJs = await browser.newContext({ locale: 'es-CO', javaScriptEnabled: false, storageState: await page.context().storageState() });
  const portal = await noJs.newPage();
  await portal.goto('/portal/transactions');
  const due = portal.getByTestId('refunds-due');
  await expect(due.getByRole('heading', { name: 'Devoluciones pendientes' })).toBeVisible();
  await expect(due.getByTestId(`refund-${late.subscriptionTransactionId}`)).toContainText(late.gatewayTransactionId!);
  await expect(portal.locator('section:has(> h2#transactions)').getByTestId('refund-due')).toHaveCount(1);
  await portal.goto(`/portal/activity/plans/${planId}`);
  await expect(portal.locator('section:has(> h2#transactions)').getByTestId('refund-due')).toHaveCount(1);
  await portal.getByTestId('refunds-due').getByRole('button', { name: 'Marcar como devuelta' }).click();
  await expect(portal.getByTestId('refunds-due')).toHaveCount(0);
  await expect(portal.getByTestId('refund-due')).toHaveCount(0);
  await portal.goto('/portal/transactions');
  await expect(portal.getByTestId('refund-due')).toHaveCount(0);
  expect(await lastTransaction(request, merchant.authorization, planId)).not.toHaveProperty('refundDue');
  await noJs.close();
});
