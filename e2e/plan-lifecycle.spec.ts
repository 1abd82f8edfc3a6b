import { checkoutRoot, expect, expectAccessible, expectState, planStatus, test } from './checkout-helpers';

// The plan lifecycle endpoints (docs/billing.md) as the customer meets them: a link whose plan the
// merchant cancelled can no longer be paid, and the page says so.

test.use({ locale: 'es-CO' });

test('a link whose plan the merchant cancelled shows the unavailable page, without a card form', async ({ page, request, merchant, createLink }) => {
  const link = await createLink();
  const cancelled = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/cancel`, {
    headers: { Authorization: merchant.authorization },
    data: { reason: 'Customer asked to cancel' },
  });
  expect(cancelled.status()).toBe(200);
  expect(await cancelled.json()).toMatchObject({ id: link.subscriptionPlanId, status: 'CANCELLED', nextChargeDate: null });

  await page.goto(`/pay/${link.token}`);
  await expectState(page, 'unavailable');
  const notice = page.getByRole('status');
  await expect(notice).toContainText('Este pago no está disponible');
  await expect(notice).toContainText('Esta suscripción fue cancelada');
  await expect(notice).toContainText('Gimnasio Norte');
  await expect(checkoutRoot(page).getByRole('heading', { level: 1 })).toHaveText('Plan Gimnasio');
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await expect(page.getByRole('button')).toHaveCount(0);
  await expectAccessible(page);
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('CANCELLED');
});
