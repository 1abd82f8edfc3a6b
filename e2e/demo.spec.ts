import { CARDS, expectState, pay } from './checkout-helpers';
import { expectAccessible } from './accessibility';
import { expect, test } from './fixtures';
import { expectInteractive } from './widget-helpers';

// /demo (the widget issue): a newcomer pays through the widget on a pretend merchant page and
// sees what the merchant learns, side by side. The three must name the same transaction.

test.use({ locale: 'es-CO' });

const jsonIn = async (text: Promise<string | null>) => JSON.parse((await text) ?? 'null');

test('the demo: a link of the demo merchant paid in the widget; callback, plan status and webhook event agree', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'demo de una tienda' }).click();
  await expect(page).toHaveURL(/\/demo$/);

  await page.getByRole('button', { name: '1. Crear link de pago' }).click();
  await expect(page.getByText('Link creado:')).toBeVisible();
  await expect(page.getByTestId('plan-status')).toContainText('"PENDING_ACTIVATION"');
  await page.getByRole('button', { name: '2. Pagar suscripción' }).click();

  const frame = page.frameLocator('dialog iframe');
  await expectInteractive(frame);
  await pay(frame, { number: CARDS.approved });
  await expectState(frame, 'approved');
  const callbacks = page.getByTestId('callbacks');
  await expect(callbacks).toContainText('onSuccess(');
  const success = await jsonIn(callbacks.textContent().then((t) => t!.replace(/^onSuccess\(/, '').replace(/\)$/, '')));
  expect(success).toEqual({ transactionId: expect.stringMatching(/^\d+(-\d+)+$/), subscriptionPlanId: expect.stringMatching(/^sub_/), status: 'APPROVED' });

  await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).click();
  await expect(callbacks).toContainText('onClose()');
  await expect(page.getByTestId('plan-status')).toContainText('"ACTIVE"');
  const status = await jsonIn(page.getByTestId('plan-status').textContent());
  expect(status.subscriptionPlanId).toBe(success.subscriptionPlanId);
  expect(status.lastTransaction.gatewayTransactionId).toBe(success.transactionId);

  const event = await jsonIn(page.getByTestId('webhook-event').textContent());
  expect(event.event).toBe('subscription.charge.approved');
  expect(event.data.transactionId).toBe(success.transactionId);
  await expect(page.getByText('registrado; el comercio no tiene URL de webhook configurada')).toBeVisible();

  await expectAccessible(page);
});
