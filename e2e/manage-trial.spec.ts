import type { APIRequestContext, Page } from '@playwright/test';
import { CARDS, expect, expectAccessible, FUTURE_EXPIRY, type Merchant, planStatus, test } from './checkout-helpers';

// A free trial on the customer's manage page (docs/customers.md#the-manage-page), in Spanish at
// 360 px, with and without JavaScript: the plan is shown as a free trial, with its end and the
// first charge then (date and amount), and it can be cancelled before anything is charged.

test.use({ locale: 'es-CO', viewport: { width: 360, height: 740 } });

let counter = 0;

/** A 14-day trial started with the sandbox's approved card, and its manage page's address. */
async function startedTrial(request: APIRequestContext, merchant: Merchant) {
  const res = await request.post('/merchants/subscription-link', {
    headers: { Authorization: merchant.authorization },
    data: {
      customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
      plan: { externalReference: `e2e-manage-trial-${Date.now().toString(36)}-${process.pid}-${++counter}`, description: 'Plan con prueba', amount: 2_990_000, trialDays: 14 },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const link = await res.json();
  const started = await request.post(`/checkout/session/${link.token}/payments`, {
    data: { cardNumber: CARDS.approved, cardExpiry: FUTURE_EXPIRY, cardCvc: '123', cardHolder: 'Ana Gómez' },
  });
  expect((await started.json()).status).toBe('TRIALING');
  const status = (await planStatus(request, merchant, link.subscriptionPlanId)) as { plan: { status: string; trial: { endsAt: number } } };
  const made = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: merchant.authorization } });
  expect(made.status()).toBe(201);
  // The date as the page writes it: long, in Spanish, in Bogotá.
  const end = new Intl.DateTimeFormat('es-CO', { dateStyle: 'long', timeZone: 'America/Bogota' }).format(new Date(status.plan.trial.endsAt));
  return { planId: link.subscriptionPlanId as string, url: (await made.json()).url as string, end };
}

async function expectTrialShown(page: Page, end: string) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Su suscripción');
  await expect(page.getByTestId('manage-status')).toHaveText('En prueba gratis');
  await expect(page.getByTestId('manage-trial')).toHaveText(`14 días, hasta el ${end}`);
  await expect(page.locator('dt', { hasText: 'Primer cobro' })).toBeVisible();
  await expect(page.getByTestId('manage-first-charge')).toHaveText(`$ 29.900, el ${end}`);
  await expect(page.getByTestId('manage-trial-note')).toHaveText(`Durante la prueba no se le cobra nada. Si cancela antes del ${end}, no se hará ningún cobro.`);
  await expect(page.getByText('Aún no hay cobros.')).toBeVisible();
  // Cancelling at the trial's end is offered first; at once is one step further.
  await expect(page.getByText(`Puede cancelar al final de su prueba gratis: sigue hasta el ${end} y no se hará ningún cobro.`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

test('a trial is shown as a free trial, with its end and first charge, accessible at 360 px', async ({ page, request, merchant }) => {
  const trial = await startedTrial(request, merchant);
  await page.goto(trial.url);
  await expectTrialShown(page, trial.end);
  await expectAccessible(page);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the trial is shown the same, and cancelling it charges nothing', async ({ page, request, merchant }) => {
    const trial = await startedTrial(request, merchant);
    await page.goto(trial.url);
    await expectTrialShown(page, trial.end);
    await page.getByRole('link', { name: 'O cancelar ahora mismo' }).click();
    await page.getByRole('button', { name: 'Sí, cancelar la suscripción' }).click();
    await expect(page.getByRole('status')).toContainText('Su suscripción fue cancelada.');
    await expect(page.getByTestId('manage-status')).toHaveText('Cancelada');
    const status = await planStatus(request, merchant, trial.planId);
    expect(status.plan.status).toBe('CANCELLED');
    expect(status.lastTransaction ?? null).toBeNull();
  });
});
