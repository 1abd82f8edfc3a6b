import type { APIRequestContext, Page } from '@playwright/test';
import { CARDS, expect, expectAccessible, expectState, fillCard, FUTURE_EXPIRY, LABELS, type Link, type Merchant, planStatus, test } from './checkout-helpers';

// A free trial on the hosted page (docs/billing.md#trials), in Spanish at 360 px: the page offers
// the trial and says nothing is charged today, offers no PSE (a bank transfer cannot be charged
// later), and saving a card starts the trial; a declined card says so, without JavaScript too.

test.use({ locale: 'es-CO', viewport: { width: 360, height: 740 } });

let counter = 0;

async function createTrialLink(request: APIRequestContext, merchant: Merchant, plan: Record<string, unknown> = { trialDays: 14 }): Promise<Link> {
  const res = await request.post('/merchants/subscription-link', {
    headers: { Authorization: merchant.authorization },
    data: {
      customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
      plan: { externalReference: `e2e-trial-${Date.now().toString(36)}-${process.pid}-${++counter}`, description: 'Plan con prueba', amount: 2_990_000, ...plan },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

const pseChoice = (page: Page) => page.locator('input[name="method"][value="PSE"]');

test('the trial is offered, PSE is not, and a saved card starts it without a charge', async ({ page, request, merchant }) => {
  // The merchant takes PSE: a link without a trial offers it.
  const plain = await createTrialLink(request, merchant, {});
  await page.goto(`/pay/${plain.token}`);
  await expectState(page, 'ready');
  await expect(pseChoice(page)).toHaveCount(1);

  const link = await createTrialLink(request, merchant);
  await page.goto(`/pay/${link.token}`);
  await expectState(page, 'ready');
  await expect(page.getByText('Gratis por 14 días, luego $ 29.900 cada mes')).toBeVisible();
  await expect(page.getByText(/Hoy no se le cobra nada/)).toBeVisible();
  await expect(pseChoice(page)).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);

  await fillCard(page, { number: CARDS.approved, holder: 'Ana Gómez' });
  await page.getByRole('button', { name: 'Empezar la prueba gratis' }).click();
  await expectState(page, 'approved');
  await expect(page.getByRole('status')).toContainText('¡Su prueba gratis empezó!');
  await expect(page.getByRole('status')).toContainText('No se le cobró nada');
  const status = await planStatus(request, merchant, link.subscriptionPlanId);
  expect(status.plan.status).toBe('TRIALING');
  expect(status.lastTransaction ?? null).toBeNull();

  // Reopened, the link says the trial has started and asks for nothing.
  await page.goto(`/pay/${link.token}`);
  await expect(page.getByRole('status')).toContainText('Su prueba gratis ya empezó');
  await expect(page.getByRole('status')).toContainText('se hará el primer cobro, de $ 29.900.');
  await expect(page.getByLabel(LABELS.cardNumber)).toHaveCount(0);
  await expectAccessible(page);
});

test('a trial with a setup fee charges the fee today and says so, before and after', async ({ page, request, merchant }) => {
  const link = await createTrialLink(request, merchant, { trialDays: 7, setupFee: 600_000 });
  await page.goto(`/pay/${link.token}`);
  await expectState(page, 'ready');
  await expect(page.getByRole('region', { name: 'Plan con prueba' }).locator('p', { hasText: /COP/ }).first()).toHaveText('$ 6.000COPhoy');
  await expect(page.getByTestId('checkout-trial-note')).toHaveText(/^Hoy solo se cobra el cargo de inscripción de \$ 6\.000, una sola vez: .* el primer cobro de \$ 29\.900 se hace al terminar la prueba/);
  await expectAccessible(page);

  await fillCard(page, { number: CARDS.approved, holder: 'Ana Gómez' });
  await page.getByRole('button', { name: 'Empezar la prueba gratis' }).click();
  await expectState(page, 'approved');
  await expect(page.getByRole('status')).toContainText('Se le cobró solo el cargo de inscripción de $ 6.000.');
  const status = await planStatus(request, merchant, link.subscriptionPlanId);
  expect(status.plan.status).toBe('TRIALING');
  expect(status.lastTransaction).toMatchObject({ status: 'APPROVED', amount: 600_000 });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a declined card says so and starts nothing; an approved one starts the trial', async ({ page, request, merchant }) => {
    const link = await createTrialLink(request, merchant);
    await page.goto(`/pay/${link.token}`);
    const fill = async (number: string) => {
      await page.getByLabel(LABELS.cardNumber).fill(number);
      await page.getByLabel(LABELS.cardExpiry).fill(FUTURE_EXPIRY);
      await page.getByLabel(LABELS.cardCvc).fill('123');
      await page.getByLabel(LABELS.cardHolder).fill('Ana Gómez');
      await page.getByRole('button', { name: 'Empezar la prueba gratis' }).click();
    };
    await fill(CARDS.insufficientFunds);
    await expect(page.getByRole('status')).toContainText('Su banco rechazó');
    expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('PENDING_ACTIVATION');

    await fill(CARDS.approved);
    await expect(page.getByRole('status')).toContainText('Su prueba gratis ya empezó');
    expect((await planStatus(request, merchant, link.subscriptionPlanId)).plan.status).toBe('TRIALING');
  });
});
