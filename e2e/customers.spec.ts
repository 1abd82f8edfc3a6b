import type { ParsedMail } from 'mailparser';
import { type Receiver, startReceiver } from '../test/webhook-receiver';
import { CARDS, expectAccessible, expectHydrated, expectState, pay } from './checkout-helpers';
import { expect, test } from './fixtures';
import { mailTo } from './mailbox';
import { createKey, signUp } from './portal-helpers';

// The customers' side (docs/customers.md), end to end in Chromium: a plan, a declined renewal on
// the test clock, the notice received over SMTP on loopback, the manage link, a new card, the
// retry approved and its receipt; and a customer who cancels, which the merchant hears of as
// subscription.cancelled only once it chose that event.

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'es-CO' });

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

/** The charge that pays the first time and declines every renewal (docs/processors.md#the-sandbox). */
const RENEWALS_DECLINE = '4000 0000 0000 0341';
let sequence = 0;

const manageUrlIn = (mail: ParsedMail) => /http:\/\/127\.0\.0\.1:\d+\/manage\/mng_[0-9A-Za-z]{40}/.exec(mail.text ?? '')?.[0];

test('a declined renewal e-mails the customer, who replaces the card on the manage page; the retry is approved and receipted', async ({ page, request, admin }) => {
  const created = await admin.post('/admin/merchants', { data: { name: 'Gimnasio Norte' } });
  const m = await created.json();
  const authorization = `Bearer ${m.apiKey}:${m.apiSecret}`;
  const email = `cliente-${Date.now().toString(36)}-${++sequence}@example.com`;
  const link = await (
    await request.post('/merchants/subscription-link', {
      headers: { Authorization: authorization },
      data: { customer: { phone: '+573001234567', email, firstName: 'Ana' }, plan: { externalReference: `e2e-customers-${Date.now()}`, description: 'Plan Gimnasio', amount: 150000 } },
    })
  ).json();

  // The first payment, and its receipt.
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: RENEWALS_DECLINE, holder: 'Ana Gómez' });
  await expectState(page, 'approved');
  const [receipt] = await mailTo(email, 1);
  expect(receipt!.subject).toBe('Recibo de su pago a Gimnasio Norte');
  // Spanish only: the checkout page was in Spanish (docs/customers.md#e-mails).
  expect(receipt!.text).not.toContain('We received');

  // The test clock: the renewal is due and declines; the customer is told, with the retry date.
  const plan = async () => (await request.get(`/merchants/subscription-plans/${link.subscriptionPlanId}`, { headers: { Authorization: authorization } })).json();
  const due = (await plan()).nextChargeDate as number;
  // The test clock sweeps every plan on this server (other specs' too): what is checked is this plan.
  const lastCharge = async () =>
    (await (await request.get(`/merchants/plans/${link.subscriptionPlanId}/status`, { headers: { Authorization: authorization } })).json()).lastTransaction;
  const run = await admin.post('/admin/billing/run', { data: { now: due + 1000 } });
  expect(run.status(), await run.text()).toBe(200);
  expect(await lastCharge()).toMatchObject({ status: 'DECLINED' });
  const retry = (await plan()).nextChargeDate as number;
  expect(retry).toBeGreaterThan(due);
  const [, notice] = await mailTo(email, 2);
  expect(notice!.subject).toContain('No pudimos cobrar su suscripción a Gimnasio Norte');
  const retryDate = new Intl.DateTimeFormat('es-CO', { dateStyle: 'long', timeZone: 'America/Bogota' }).format(retry);
  expect(notice!.text).toContain(`Lo intentaremos de nuevo el ${retryDate}`);
  const manageUrl = manageUrlIn(notice!);
  expect(manageUrl).toBeTruthy();
  expect(notice!.html).toContain(manageUrl!);

  // The manage page, at 360 px: plan, next charge (the retry), the declined charge; a new card.
  await page.setViewportSize({ width: 360, height: 800 });
  const opened = await page.goto(manageUrl!);
  expect(opened!.headers()['cache-control']).toContain('no-store');
  expect(opened!.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Su suscripción');
  await expect(page.getByText('con Gimnasio Norte')).toBeVisible();
  await expect(page.getByTestId('manage-amount')).toHaveText('$ 1.500');
  await expect(page.getByTestId('manage-next-charge')).toHaveText(retryDate);
  await expect(page.getByTestId('manage-failing')).toContainText(retryDate);
  await expect(page.getByTestId('manage-charge')).toHaveCount(2);
  await expect(page.getByTestId('manage-charge').first()).toContainText('Rechazado');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);

  await page.getByLabel('Número de la tarjeta').fill(CARDS.approved);
  await page.getByLabel('Vencimiento (MM/AA)').fill('12/30');
  await page.getByLabel('Código de seguridad (CVC)').fill('123');
  await page.getByLabel('Nombre del titular').fill('Ana Gómez');
  await page.getByRole('button', { name: 'Guardar tarjeta' }).click();
  await expect(page.getByRole('status')).toHaveText('Listo: guardamos su nuevo medio de pago.');
  await expectAccessible(page);
  // Nothing was charged: the retry keeps its date.
  expect((await plan()).nextChargeDate).toBe(retry);

  // The retry charges the new card, and the customer gets its receipt.
  const retried = await admin.post('/admin/billing/run', { data: { now: retry + 1000 } });
  expect(retried.status(), await retried.text()).toBe(200);
  expect(await lastCharge()).toMatchObject({ status: 'APPROVED' });
  expect(await plan()).toMatchObject({ status: 'ACTIVE' });
  const mails = await mailTo(email, 3);
  expect(mails[2]!.subject).toContain('Recibo de su pago a Gimnasio Norte');
  await page.reload();
  await expect(page.getByTestId('manage-charge').first()).toContainText('Aprobado');
  await expect(page.getByTestId('manage-failing')).toHaveCount(0);
});

test('a customer cancels from the manage page; the merchant gets subscription.cancelled only after choosing it', async ({ page, request, admin }) => {
  const created = await (await admin.post('/admin/merchants', { data: { name: 'Gimnasio Norte', webhookUrl: receiver.url } })).json();
  const authorization = `Bearer ${created.apiKey}:${created.apiSecret}`;

  async function paidPlanWithManageLink() {
    const link = await (
      await request.post('/merchants/subscription-link', {
        headers: { Authorization: authorization },
        data: { customer: { phone: '+573001234567', email: `c-${Date.now()}-${++sequence}@example.com` }, plan: { externalReference: `e2e-cancel-${Date.now()}-${sequence}`, description: 'Plan Gimnasio', amount: 150000 } },
      })
    ).json();
    await page.goto(`/pay/${link.token}`);
    await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });
    await expectState(page, 'approved');
    const manage = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: authorization } });
    expect(manage.status()).toBe(201);
    return { planId: link.subscriptionPlanId as string, url: (await manage.json()).url as string };
  }

  async function cancelOnPage(url: string) {
    await page.goto(url);
    await page.getByRole('link', { name: 'O cancelar ahora mismo' }).click();
    await expect(page.getByRole('heading', { name: '¿Seguro que desea cancelar?' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Sí, cancelar la suscripción' }).click();
    await expect(page.getByRole('status')).toContainText('Su suscripción fue cancelada');
    await expect(page.getByTestId('manage-status')).toHaveText('Cancelada');
    await expect(page.getByRole('button', { name: 'Guardar tarjeta' })).toHaveCount(0);
  }

  const bodiesOf = (planId: string) => receiver.received.map((r) => JSON.parse(r.body)).filter((b) => b.data.subscriptionPlanId === planId);

  // Not chosen: the charge event only.
  const first = await paidPlanWithManageLink();
  await cancelOnPage(first.url);
  await expect.poll(() => bodiesOf(first.planId).map((b) => b.event)).toEqual(['subscription.charge.approved']);

  // Chosen through the operator API: the cancellation arrives, with the customer's reason.
  const chosen = await admin.patch(`/admin/merchants/${created.merchantId}`, { data: { webhookEvents: ['subscription.cancelled'] } });
  expect((await chosen.json()).webhookEvents).toContain('subscription.cancelled');
  const second = await paidPlanWithManageLink();
  await cancelOnPage(second.url);
  await expect.poll(() => bodiesOf(second.planId).map((b) => b.event).sort()).toEqual(['subscription.cancelled', 'subscription.charge.approved']);
  expect(bodiesOf(second.planId).find((b) => b.event === 'subscription.cancelled').data).toMatchObject({ status: 'CANCELLED', reason: 'Cancelled by the customer' });
  expect(bodiesOf(first.planId).map((b) => b.event)).toEqual(['subscription.charge.approved']);
});

test("the customer's e-mails follow the checkout page's language, and later the manage page's choice", async ({ page, request, admin }) => {
  const m = await (await admin.post('/admin/merchants', { data: { name: 'Gimnasio Norte' } })).json();
  const email = `english-${Date.now().toString(36)}-${++sequence}@example.com`;
  const link = await (
    await request.post('/merchants/subscription-link', {
      headers: { Authorization: `Bearer ${m.apiKey}:${m.apiSecret}` },
      data: { customer: { phone: '+573001234567', email, firstName: 'Ann' }, plan: { externalReference: `e2e-english-${Date.now()}`, description: 'Gym plan', amount: 150000 } },
    })
  ).json();

  // Paid on the checkout page in English: the receipt is in English only, and so is its manage link.
  await page.goto(`/pay/${link.token}?lang=en`);
  await expectHydrated(page);
  await page.getByLabel('Card number').fill(CARDS.approved);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/30');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Cardholder name').fill('Ann Smith');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expectState(page, 'approved');
  const [receipt] = await mailTo(email, 1);
  expect(receipt!.subject).toBe('Receipt for your payment to Gimnasio Norte');
  expect(receipt!.text).toContain('We received your payment of $ 1.500 for “Gym plan”');
  expect(`${receipt!.text}${receipt!.html}`).not.toMatch(/Recibimos|Hola|suscripción/);
  const manageUrl = manageUrlIn(receipt!)!;
  expect(receipt!.text).toContain(`${manageUrl}?lang=en`);

  // The customer switches the manage page to Spanish and cancels: the confirmation is in Spanish.
  await page.goto(`${manageUrl}?lang=es`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Su suscripción');
  // Cancelling at once (the page offers the end of the period first).
  await page.goto(`${manageUrl}?cancel=confirm&lang=es`);
  await page.getByRole('button', { name: 'Sí, cancelar la suscripción' }).click();
  await expect(page.getByTestId('manage-status')).toHaveText('Cancelada');
  const [, cancelled] = await mailTo(email, 2);
  expect(cancelled!.subject).toBe('Su suscripción a Gimnasio Norte fue cancelada');
  expect(cancelled!.text).not.toMatch(/Hello|was cancelled/);
});

test('a built server has no /dev pages: /dev/emails is the not-found page, a 404, with no e-mail in it', async ({ page }) => {
  // The sandbox deployment under test made receipts above; none may show on a /dev page.
  for (const path of ['/dev/emails', '/dev']) {
    const res = await page.goto(path);
    expect(res!.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/No encontramos esta página|We could not find this page/);
    await expect(page.getByTestId('dev-email')).toHaveCount(0);
    expect(await page.content()).not.toContain('/manage/mng_');
  }
  await expectAccessible(page);
});

test('an unknown, forged or expired manage link shows a clear page and no data', async ({ page }) => {
  for (const token of ['mng_' + 'A'.repeat(40), 'not-a-token']) {
    const res = await page.goto(`/manage/${token}`);
    expect(res!.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Este enlace no es válido o ya venció');
    await expect(page.getByText('Gimnasio')).toHaveCount(0);
    await expectAccessible(page);
  }
});

test('the merchant chooses lifecycle events in the portal, and sees the e-mails and manage-link use on the plan page', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signUp(page);
  const key = await createKey(page);

  await page.goto('/portal/settings/webhooks');
  const cancelled = page.getByRole('checkbox', { name: /subscription\.cancelled/ });
  await expect(cancelled).not.toBeChecked();
  await cancelled.check();
  await page.getByRole('button', { name: 'Guardar eventos' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Eventos guardados.' })).toBeVisible();
  await expectAccessible(page);
  await page.reload();
  await expect(page.getByRole('checkbox', { name: /subscription\.cancelled/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /subscription\.paused/ })).not.toBeChecked();

  const email = `portal-${Date.now().toString(36)}-${++sequence}@example.com`;
  const link = await (
    await request.post('/merchants/subscription-link', {
      headers: { Authorization: key.authorization },
      data: { customer: { phone: '+573001234567', email, firstName: 'Ana' }, plan: { externalReference: `e2e-portal-${Date.now()}`, description: 'Plan mensual', amount: 150000 } },
    })
  ).json();
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });
  await expectState(page, 'approved');
  const [receipt] = await mailTo(email, 1);
  await page.goto(manageUrlIn(receipt!)!);
  await expect(page.getByTestId('manage-status')).toHaveText('Activa');

  await page.goto(`/portal/activity/plans/${link.subscriptionPlanId}`);
  const side = page.getByRole('region', { name: 'Lado del cliente' });
  await expect(side.getByTestId('customer-email')).toHaveCount(1);
  await expect(side.getByTestId('customer-email')).toContainText('Recibo');
  await expect(side.getByTestId('customer-email')).toContainText(email);
  await expect(side.getByTestId('customer-email')).toContainText('Enviado');
  await expect(side.getByTestId('manage-link-use')).toContainText('Usos del enlace de gestión: 1');
  await expectAccessible(page);
});
