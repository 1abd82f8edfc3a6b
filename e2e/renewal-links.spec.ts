import type { APIRequestContext, Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { type Receiver, startReceiver } from '../test/webhook-receiver';
import { expectAccessible, expectState, pay, planStatus } from './checkout-helpers';
import { expect, test } from './fixtures';
import { mailTo } from './mailbox';
import { acceptConsent, useWompi } from './wompi-helpers';

// Renewals the customer pays (docs/billing.md#renewal-links), end to end in Chromium with the test
// clock (POST /admin/billing/run): a RECURRING plan started with PSE gets its renewal link by
// e-mail (read from the loopback SMTP server), pays it with PSE and gets the receipt, then lets the
// next period's grace run out and is cancelled `unpaid`, with the sandbox and with Wompi (the local
// double); and a card whose renewals fail steps down the ladder to a link, paid with Nequi, after
// which the plan renews itself on that Nequi account.

// The test clock moves every plan of the server: these journeys take their turns.
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'es-CO' });

const DAY = 86_400_000;
const MINUTE = 60_000;
/** The sandbox charge that pays the first time and declines every renewal (docs/processors.md#the-sandbox). */
const RENEWALS_DECLINE = '4000 0000 0000 0341';
const CHOSEN_EVENTS = ['subscription.renewal_due', 'subscription.cancelled'];

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

let sequence = 0;

/** A merchant whose webhooks reach the receiver, with the renewal events chosen; on Wompi (the double) when asked. */
async function merchantOf(request: APIRequestContext, admin: APIRequestContext, processor: 'sandbox' | 'wompi') {
  const created = await admin.post('/admin/merchants', { data: { name: 'Gimnasio Norte', webhookUrl: receiver.url } });
  expect(created.status()).toBe(201);
  const m = await created.json();
  const chosen = await admin.patch(`/admin/merchants/${m.merchantId}`, { data: { webhookEvents: CHOSEN_EVENTS } });
  expect(chosen.status(), await chosen.text()).toBe(200);
  if (processor === 'wompi') await useWompi(request, admin, m.merchantId);
  return { merchantId: m.merchantId as string, name: 'Gimnasio Norte', authorization: `Bearer ${m.apiKey}:${m.apiSecret}` };
}

async function subscriptionLink(request: APIRequestContext, authorization: string) {
  const email = `renueva-${Date.now().toString(36)}-${++sequence}@example.com`;
  const res = await request.post('/merchants/subscription-link', {
    headers: { Authorization: authorization },
    data: {
      customer: { phone: '+573001234567', email, firstName: 'Ana' },
      plan: { externalReference: `e2e-renewal-${Date.now().toString(36)}-${sequence}`, description: 'Plan Gimnasio', amount: 150000 },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const link = await res.json();
  return { email, url: link.url as string, planId: link.subscriptionPlanId as string };
}

const BANKS = {
  approved: { sandbox: 'Banco que aprueba (sandbox)', wompi: 'Banco que aprueba' },
  declined: { sandbox: 'Banco que rechaza (sandbox)', wompi: 'Banco que declina' },
} as const;

/** Pays the page open in `page` with PSE at the bank that approves (or declines): the sandbox's, or Wompi's (documents accepted). */
async function payWithPse(page: Page, processor: 'sandbox' | 'wompi', outcome: 'approved' | 'declined' = 'approved') {
  await page.getByRole('radio', { name: /PSE/ }).check();
  await page.getByLabel('Banco', { exact: true }).selectOption({ label: BANKS[outcome][processor] });
  await page.getByLabel('Número de documento').fill('1020304050');
  await page.getByLabel('Nombre completo o razón social').fill('Ana Gómez');
  if (processor === 'wompi') await acceptConsent(page);
  await page.getByRole('button', { name: 'Continuar al banco' }).click();
  await expectState(page, outcome, 15_000);
}

/** The renewal link an e-mail carries (a plain /pay/<token> address of this server). */
const renewalUrlIn = (mail: ParsedMail) => /http:\/\/127\.0\.0\.1:\d+\/pay\/[0-9A-Za-z]{10}\b/.exec(mail.text ?? '')?.[0];

function clock(admin: APIRequestContext) {
  return async (now: number) => {
    const run = await admin.post('/admin/billing/run', { data: { now } });
    expect(run.status(), await run.text()).toBe(200);
    return run.json();
  };
}

/** The webhook bodies of one plan, in the order they arrived. */
const eventsOf = (planId: string) =>
  receiver.received.map((r) => JSON.parse(r.body)).filter((b) => b.data.subscriptionPlanId === planId) as { event: string; data: Record<string, unknown> }[];

async function expectEvents(planId: string, events: string[]) {
  await expect.poll(() => eventsOf(planId).map((b) => b.event), { timeout: 15_000 }).toEqual(events);
}

for (const processor of ['sandbox', 'wompi'] as const) {
  test(`PSE subscription (${processor}): the renewal link arrives by e-mail, is paid with PSE and receipted; the next period's grace runs out and the plan is CANCELLED unpaid`, async ({ page, request, admin }) => {
    test.setTimeout(150_000);
    const merchant = await merchantOf(request, admin, processor);
    const { email, url, planId } = await subscriptionLink(request, merchant.authorization);
    const record = async () => {
      const res = await request.get(`/merchants/subscription-plans/${planId}`, { headers: { Authorization: merchant.authorization } });
      expect(res.status()).toBe(200);
      return res.json();
    };
    const run = clock(admin);

    // The first payment, by PSE: ACTIVE, renewed by link from now on.
    await page.goto(url);
    await payWithPse(page, processor);
    const [receipt] = await mailTo(email, 1);
    expect(receipt!.subject).toBe('Recibo de su pago a Gimnasio Norte');
    const first = await record();
    expect(first).toMatchObject({ status: 'ACTIVE' });
    expect(first.renewalUrl).toBeUndefined();
    const due = first.nextChargeDate as number;
    await expectEvents(planId, ['subscription.charge.approved']);

    // reminderDays (3) before the due date the sweep e-mails the period's link; nothing is pulled.
    await run(due - 3 * DAY - MINUTE);
    expect((await record()).renewalUrl).toBeUndefined();
    await run(due - 3 * DAY + MINUTE);
    const [, reminder] = await mailTo(email, 2);
    expect(reminder!.subject).toBe('Renueve su suscripción a Gimnasio Norte');
    const renewalUrl = renewalUrlIn(reminder!);
    expect(renewalUrl).toBeTruthy();
    expect(reminder!.html).toContain(renewalUrl!);
    expect((await record()).renewalUrl).toBe(renewalUrl);
    await expectEvents(planId, ['subscription.charge.approved', 'subscription.renewal_due']);
    expect(eventsOf(planId)[1]!.data.renewal).toMatchObject({ url: renewalUrl, amount: 150000, period: due });
    // Nobody has paid: the status API shows the first payment, no invented PENDING one.
    expect((await planStatus(request, merchant, planId)).lastTransaction).toMatchObject({ status: 'APPROVED' });

    // The customer opens the link from the e-mail, at 360 px, and pays the period with PSE.
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(renewalUrl!);
    await expect(page.getByText(/^Renovación del periodo que vence el/)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    // Declined at the bank first: nothing changes, and the page offers to try again, by any method, while grace lasts.
    await payWithPse(page, processor, 'declined');
    await expect(page.getByText(/Puede intentarlo de nuevo o pagar con otro medio hasta el/)).toBeVisible();
    expect((await record()).renewalUrl).toBe(renewalUrl);
    await expectEvents(planId, ['subscription.charge.approved', 'subscription.renewal_due', 'subscription.charge.declined']);
    await page.goto(renewalUrl!);
    await payWithPse(page, processor);
    const [, , renewalReceipt] = await mailTo(email, 3);
    expect(renewalReceipt!.subject).toBe('Recibo de su pago a Gimnasio Norte');
    expect(renewalReceipt!.attachments.map((a) => a.contentType)).toContain('application/pdf');
    const renewed = await record();
    expect(renewed).toMatchObject({ status: 'ACTIVE' });
    expect(renewed.renewalUrl).toBeUndefined();
    const nextDue = renewed.nextChargeDate as number;
    expect(nextDue).toBeGreaterThan(due + 27 * DAY);
    await expectEvents(planId, ['subscription.charge.approved', 'subscription.renewal_due', 'subscription.charge.declined', 'subscription.charge.approved']);
    // The paid link says so instead of a form.
    await page.goto(renewalUrl!);
    await expectState(page, 'paid');
    await expect(page.getByRole('status')).toContainText('Esta renovación ya fue pagada');

    // The next period: the link, a reminder on the due date and one 2 days before grace (5 days) ends; nobody pays.
    await run(nextDue - 3 * DAY + MINUTE);
    const fourth = (await mailTo(email, 4))[3]!;
    expect(fourth.subject).toBe('Renueve su suscripción a Gimnasio Norte');
    const nextUrl = renewalUrlIn(fourth)!;
    expect(nextUrl).not.toBe(renewalUrl);
    const nextLinkEvents = [
      'subscription.charge.approved',
      'subscription.renewal_due',
      'subscription.charge.declined',
      'subscription.charge.approved',
      'subscription.renewal_due',
    ];
    await expectEvents(planId, nextLinkEvents);
    await run(nextDue + MINUTE);
    expect((await mailTo(email, 5))[4]!.subject).toBe('Hoy vence su suscripción a Gimnasio Norte');
    await run(nextDue + 3 * DAY + MINUTE);
    expect((await mailTo(email, 6))[5]!.subject).toBe('Quedan 2 días para renovar su suscripción a Gimnasio Norte');
    // Still ACTIVE during grace.
    expect((await record()).status).toBe('ACTIVE');

    const ended = await run(nextDue + 5 * DAY + MINUTE);
    expect(ended.cancelledPlanIds).toContain(planId);
    const cancelled = await record();
    expect(cancelled).toMatchObject({ status: 'CANCELLED', nextChargeDate: null });
    expect(cancelled.renewalUrl).toBeUndefined();
    const goodbye = (await mailTo(email, 7))[6]!;
    expect(goodbye.subject).toBe('Su suscripción a Gimnasio Norte fue cancelada');
    expect(goodbye.text).toContain('La cancelamos porque la renovación no se pagó dentro del plazo.');
    // The merchant heard every step, in order; the cancellation with reason `unpaid`.
    await expectEvents(planId, [...nextLinkEvents, 'subscription.cancelled']);
    expect(eventsOf(planId)[5]!.data).toMatchObject({ status: 'CANCELLED', reason: 'unpaid', nextChargeDate: null });
    // The expired link says what happened and what to do; it takes no payment.
    await page.goto(nextUrl);
    await expectState(page, 'expired');
    await expect(page.getByRole('status')).toContainText('Su suscripción fue cancelada por falta de pago');
    await expect(page.getByRole('status')).toContainText('pídale a Gimnasio Norte un link de suscripción nuevo');
    await expectAccessible(page);
  });
}

test('card renewals exhausted: the ladder e-mails a renewal link, paid with Nequi, and the next renewal is pulled from that Nequi account', async ({ page, request, admin }) => {
  test.setTimeout(120_000);
  const merchant = await merchantOf(request, admin, 'sandbox');
  const { email, url, planId } = await subscriptionLink(request, merchant.authorization);
  const record = async () => (await request.get(`/merchants/subscription-plans/${planId}`, { headers: { Authorization: merchant.authorization } })).json();
  const run = clock(admin);

  await page.goto(url);
  await pay(page, { number: RENEWALS_DECLINE, holder: 'Ana Gómez' });
  await expectState(page, 'approved');
  const due = (await record()).nextChargeDate as number;

  // The due date and three retries decline; the last one steps down to a link instead of cancelling.
  for (let attempt = 0; attempt < 4; attempt++) {
    const at = (await record()).nextChargeDate as number;
    expect(at).toBeGreaterThanOrEqual(due);
    const swept = await run(at + MINUTE);
    expect(swept.cancelledPlanIds).not.toContain(planId);
    // Each decline's event has arrived before the next attempt, so they arrive in order.
    await expect.poll(() => eventsOf(planId).filter((b) => b.event === 'subscription.charge.declined').length, { timeout: 15_000 }).toBe(attempt + 1);
  }
  const laddered = await record();
  expect(laddered).toMatchObject({ status: 'ACTIVE' });
  expect(laddered.renewalUrl).toEqual(expect.stringMatching(/\/pay\/[0-9A-Za-z]{10}$/));
  await expect
    .poll(async () => (await mailTo(email, 1)).map((m) => m.subject))
    .toContain('No pudimos cobrar su suscripción a Gimnasio Norte: pague con otro medio');
  const ladderMail = (await mailTo(email, 1)).find((m) => m.subject === 'No pudimos cobrar su suscripción a Gimnasio Norte: pague con otro medio')!;
  expect(renewalUrlIn(ladderMail)).toBe(laddered.renewalUrl);
  const ladderEvents = [
    'subscription.charge.approved',
    'subscription.charge.declined',
    'subscription.charge.declined',
    'subscription.charge.declined',
    'subscription.charge.declined',
    'subscription.renewal_due',
  ];
  await expectEvents(planId, ladderEvents);
  const mailsBefore = (await mailTo(email, 1)).length;

  // The link offers every method; Nequi shows what the customer consents to, and the payment waits for the app.
  await page.goto(laddered.renewalUrl);
  await page.getByRole('radio', { name: /Nequi/ }).check();
  await expect(page.getByText(/Al aprobar, autoriza a Gimnasio Norte a cobrar \$\s1\.500 .* a esta cuenta Nequi hasta que cancele la suscripción\./)).toBeVisible();
  await page.getByLabel('Celular registrado en Nequi').fill('3991111111');
  await expectAccessible(page);
  await page.getByRole('button', { name: /con Nequi/ }).click();
  await expectState(page, 'approved', 15_000);
  expect((await mailTo(email, mailsBefore + 1))[mailsBefore]!.subject).toBe('Recibo de su pago a Gimnasio Norte');
  const paid = await record();
  expect(paid).toMatchObject({ status: 'ACTIVE' });
  expect(paid.renewalUrl).toBeUndefined();
  const nextDue = paid.nextChargeDate as number;
  expect(nextDue).toBeGreaterThan(due + 27 * DAY);

  // Automatic again: the next period is pulled from the Nequi account with no link and no e-mail but the receipt.
  const swept = await run(nextDue + MINUTE);
  const status = await planStatus(request, merchant, planId);
  expect(swept.transactionIds).toContain(status.lastTransaction!.subscriptionTransactionId);
  expect(status.lastTransaction).toMatchObject({ status: 'APPROVED' });
  const after = await record();
  expect(after).toMatchObject({ status: 'ACTIVE' });
  expect(after.nextChargeDate).toBeGreaterThan(nextDue);
  expect(after.renewalUrl).toBeUndefined();
  const mails = await mailTo(email, mailsBefore + 2);
  expect(mails[mailsBefore + 1]!.subject).toBe('Recibo de su pago a Gimnasio Norte');
  expect(mails.map((m) => m.subject)).not.toContain('Renueve su suscripción a Gimnasio Norte');
  // The link's payment, then the renewal pulled from Nequi.
  await expectEvents(planId, [...ladderEvents, 'subscription.charge.approved', 'subscription.charge.approved']);
});
