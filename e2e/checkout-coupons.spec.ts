import type { APIRequestContext, Page } from '@playwright/test';
import { CARDS, expect, expectAccessible, expectState, type Link, type Merchant, pay, payWithoutScript, planStatus, test } from './checkout-helpers';

// Coupons on the hosted page (docs/billing.md#coupons), in Spanish at 360 px: a coupon the merchant
// applied shows the list price, the discount, today's and later charges, and the card is charged
// the discounted amount; a code the customer types works as a plain form, without JavaScript too.

test.use({ locale: 'es-CO', viewport: { width: 360, height: 740 } });

let counter = 0;

async function createCoupon(request: APIRequestContext, merchant: Merchant, body: Record<string, unknown>) {
  const res = await request.post('/merchants/coupons', { headers: { Authorization: merchant.authorization }, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

async function createLink(request: APIRequestContext, merchant: Merchant, plan: Record<string, unknown>): Promise<Link> {
  const res = await request.post('/merchants/subscription-link', {
    headers: { Authorization: merchant.authorization },
    data: {
      customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
      plan: { externalReference: `e2e-coupon-${Date.now().toString(36)}-${process.pid}-${++counter}`, description: 'Plan semanal', ...plan },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

const lastAmount = async (request: APIRequestContext, merchant: Merchant, planId: string) => {
  const res = await request.get(`/merchants/plans/${planId}/status`, { headers: { Authorization: merchant.authorization } });
  return (await res.json()).lastTransaction?.amount;
};

const noSideScroll = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

test('a coupon the merchant applied: list price, discount, today and later, and the card charged 80 %', async ({ page, request, merchant }) => {
  await createCoupon(request, merchant, { code: 'BIENVENIDA20', percentOff: 20, duration: 'repeating', durationInPeriods: 3 });
  const link = await createLink(request, merchant, { amount: 2_990_000, interval: { unit: 'week', count: 1 }, coupon: 'bienvenida20' });
  await page.goto(`/pay/${link.token}`);
  await expectState(page, 'ready');
  const lines = page.getByTestId('checkout-discount');
  await expect(lines).toContainText('Precio$ 29.900 cada semana');
  await expect(lines).toContainText('Descuento (BIENVENIDA20)−$ 5.980');
  await expect(lines).toContainText('Paga hoy$ 23.920');
  await expect(lines).toContainText('Después$ 23.920 en los próximos 2 cobros; luego $ 29.900 cada semana');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Plan semanal');
  await expect(page.getByRole('button', { name: 'Pagar $ 23.920' })).toBeVisible();
  await noSideScroll(page);
  await expectAccessible(page);

  await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });
  await expectState(page, 'approved');
  expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('ACTIVE');
  expect(await lastAmount(request, merchant, link.subscriptionPlanId)).toBe(2_392_000);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the customer types a code: a bad one is refused next to the field, a good one applies, and the payment is discounted', async ({ page, request, merchant }) => {
    test.setTimeout(60_000);
    await createCoupon(request, merchant, { code: 'MENOS5000', amountOff: 500_000, duration: 'forever' });
    const link = await createLink(request, merchant, { amount: 2_000_000, allowPromotionCodes: true });
    await page.goto(`/pay/${link.token}`);
    await expectState(page, 'ready');
    await expect(page.getByTestId('checkout-discount')).toHaveCount(0);
    const field = page.getByLabel('¿Tiene un código de descuento?');

    await field.fill('NOEXISTE');
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Ese código no es válido' })).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('checkout-discount')).toHaveCount(0);

    await field.fill('menos5000');
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await expect(page.getByText('Código aplicado: el descuento ya se ve arriba.')).toBeVisible();
    const lines = page.getByTestId('checkout-discount');
    await expect(lines).toContainText('Descuento (MENOS5000)−$ 5.000');
    await expect(lines).toContainText('Paga hoy$ 15.000');
    await expect(lines).toContainText('Después$ 15.000 al mes, con el descuento en cada cobro');
    await noSideScroll(page);

    await payWithoutScript(page, CARDS.approved);
    await expectState(page, 'approved');
    expect(await lastAmount(request, merchant, link.subscriptionPlanId)).toBe(1_500_000);
  });
});

test('the code form and its refusal are accessible (axe needs JavaScript: the same server-rendered page)', async ({ page, request, merchant }) => {
  const link = await createLink(request, merchant, { amount: 2_000_000, allowPromotionCodes: true });
  await page.goto(`/pay/${link.token}?promotion=expired`);
  await expectState(page, 'ready');
  await expect(page.getByRole('status').filter({ hasText: 'Ese código ya venció.' })).toBeVisible();
  await expect(page.getByLabel('¿Tiene un código de descuento?')).toHaveAttribute('aria-invalid', 'true');
  await noSideScroll(page);
  await expectAccessible(page);
});
