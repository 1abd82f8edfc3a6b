import type { Page } from '@playwright/test';
import { ServicePay } from '../packages/node/src/index';
import { type Receiver, startReceiver } from '../test/webhook-receiver';
import { CARDS, expectState, fillCard, pay, test } from './checkout-helpers';
import { BASE_URL, expect } from './fixtures';
import { createKey, signUp } from './portal-helpers';

// The sandbox a merchant drives (docs/billing.md#test-clocks): a merchant's own code, written with the SDK as
// its README shows, moves its own test clock step by step through a plan's life: a trial with a
// coupon paid in Chromium, the trial's end, two renewals, a declined renewal and its retries, the
// ladder's renewal link paid on the page, and a cancellation at the end of the period. After each
// step it checks the status reply (`lastTransaction` the charge just made), the webhook events and
// the e-mails in the portal's log; a second merchant's plan, due on the first one's clock, is never
// charged by it.

test.use({ locale: 'es-CO', viewport: { width: 360, height: 800 } });

const MINUTE = 60_000;
/** The sandbox card that pays when the customer is there and declines every renewal. */
const RENEWALS_DECLINE = '4000 0000 0000 0341';
const LIFECYCLE = ['subscription.cancelled', 'subscription.renewal_due', 'subscription.updated'];

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

/** The subjects in the portal's e-mail log (Pruebas → Correos enviados), newest first. */
async function loggedSubjects(page: Page): Promise<string[]> {
  await page.goto('/portal/sandbox/emails');
  return page.getByTestId('sandbox-email').getByRole('heading').allTextContents();
}

test('a merchant script drives its own clock through trial, renewals, a declined renewal, its link and a cancellation at period end', async ({ page, admin }) => {
  test.setTimeout(240_000);
  await signUp(page);
  const key = await createKey(page);
  const servicepay = new ServicePay({ apiKey: key.apiKey, apiSecret: key.apiSecret, baseUrl: BASE_URL });
  const stamp = Date.now().toString(36);

  // A second merchant, in real time, with a plan its first payment made due in a month.
  const other = await (await admin.post('/admin/merchants', { data: { name: 'Otro comercio' } })).json();
  const otherClient = new ServicePay({ apiKey: other.apiKey, apiSecret: other.apiSecret, baseUrl: BASE_URL });
  const otherLink = await otherClient.links.create({
    customer: { phone: '+573001234567', email: `otro-${stamp}@example.com` },
    plan: { externalReference: `otro-${stamp}`, description: 'Plan mensual', amount: 90000 },
  });
  await page.goto(otherLink.url);
  await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });
  await expectState(page, 'approved');
  const otherBefore = await otherClient.plans.status(otherLink.subscriptionPlanId);
  expect(otherBefore.lastTransaction?.status).toBe('APPROVED');

  // The merchant's code: a coupon, then a trial link that carries it.
  const coupon = await servicepay.coupons.create({ percentOff: 20, duration: 'forever' });
  const email = `reloj-${stamp}@example.com`;
  const link = await servicepay.links.create({
    customer: { phone: '+573001234567', email, firstName: 'Ana' },
    plan: { externalReference: `reloj-${stamp}`, description: 'Plan Gimnasio', amount: 150000, trialDays: 7, coupon: coupon.id },
  });
  const planId = link.subscriptionPlanId;
  const { merchantId } = await servicepay.plans.retrieve(planId);
  const chosen = await admin.patch(`/admin/merchants/${merchantId}`, { data: { webhookUrl: receiver.url, webhookEvents: LIFECYCLE } });
  expect(chosen.status(), await chosen.text()).toBe(200);
  const events = () => receiver.received.map((r) => JSON.parse(r.body)).filter((b) => b.data.subscriptionPlanId === planId).map((b) => b.event as string);

  await page.goto(link.url);
  await fillCard(page, { number: CARDS.approved, holder: 'Ana Gómez' });
  await page.getByRole('button', { name: 'Empezar la prueba gratis' }).click();
  await expectState(page, 'approved');
  expect(await servicepay.plans.status(planId)).toMatchObject({ plan: { status: 'TRIALING' } });

  let seen = 0;
  let logged = (await loggedSubjects(page)).length;
  /** Moves the clock to `at` and checks that the status reply's lastTransaction is the newest charge it made. */
  async function advanceTo(at: number, expected: 'APPROVED' | 'DECLINED' | 'none') {
    const clock = await servicepay.testClock.advance(new Date(at));
    expect(clock.status).toBe('ready');
    expect(new Date(clock.frozenTime!).getTime()).toBe(at);
    const made = clock.lastAdvance!.transactionIds;
    const status = await servicepay.plans.status(planId);
    if (expected === 'none') {
      expect(made).toEqual([]);
      return status;
    }
    expect(made).toHaveLength(1);
    expect(status.lastTransaction).toMatchObject({ subscriptionTransactionId: made[0], status: expected });
    expect(status.lastTransaction!.chargeDate).toBeLessThanOrEqual(at);
    seen++;
    await expect.poll(() => events().filter((e) => e.startsWith('subscription.charge.')).length, { timeout: 15_000 }).toBe(seen);
    // Every charge tells the customer (a receipt, or what failed and what comes next).
    await expect.poll(async () => (await loggedSubjects(page)).length).toBeGreaterThan(logged);
    logged = (await loggedSubjects(page)).length;
    return status;
  }

  // The trial's end: the first charge, with the coupon's 20 % off.
  const trialEnd = (await servicepay.plans.retrieve(planId)).trial!.endsAt!;
  const first = await advanceTo(trialEnd + MINUTE, 'APPROVED');
  expect(first.lastTransaction!.amount).toBe(120000);
  expect(first.plan.status).toBe('ACTIVE');
  await expect.poll(() => loggedSubjects(page)).toContain('Recibo de su pago a Gimnasio Norte');

  // Two renewals, each a month on.
  for (let n = 0; n < 2; n++) {
    const due = (await servicepay.plans.retrieve(planId)).nextChargeDate!;
    const renewed = await advanceTo(due + MINUTE, 'APPROVED');
    expect(renewed.lastTransaction!.amount).toBe(120000);
  }
  expect(events().filter((e) => e === 'subscription.charge.approved')).toHaveLength(3);

  // The customer replaces the card on the manage page with one whose renewals decline.
  const manage = await servicepay.plans.manageLink(planId);
  await page.goto(manage.url);
  await page.getByLabel('Número de la tarjeta').fill(RENEWALS_DECLINE);
  await page.getByLabel('Vencimiento (MM/AA)').fill('12/30');
  await page.getByLabel('Código de seguridad (CVC)').fill('123');
  await page.getByLabel('Nombre del titular').fill('Ana Gómez');
  await page.getByRole('button', { name: 'Guardar tarjeta' }).click();
  await expect(page.getByRole('status')).toHaveText('Listo: guardamos su nuevo medio de pago.');

  // The due date and its retries decline; the last steps down to a renewal link.
  for (let attempt = 0; attempt < 4; attempt++) {
    const due = (await servicepay.plans.retrieve(planId)).nextChargeDate!;
    await advanceTo(due + MINUTE, 'DECLINED');
  }
  const laddered = await servicepay.plans.retrieve(planId);
  expect(laddered.status).toBe('ACTIVE');
  expect(laddered.renewalUrl).toMatch(/\/pay\/[0-9A-Za-z]{10}$/);
  await expect.poll(() => events()).toContain('subscription.renewal_due');
  await expect.poll(() => loggedSubjects(page)).toContain('No pudimos cobrar su suscripción a Gimnasio Norte: pague con otro medio');

  // The customer pays the link on the page; the payment is dated on the clock, so it is the newest.
  const clockAt = new Date((await servicepay.testClock.retrieve()).frozenTime!).getTime();
  await page.goto(laddered.renewalUrl!);
  await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });
  await expectState(page, 'approved');
  const paid = await servicepay.plans.status(planId);
  expect(paid.lastTransaction).toMatchObject({ status: 'APPROVED', amount: 120000, chargeDate: clockAt });
  expect((await servicepay.plans.retrieve(planId)).renewalUrl).toBeUndefined();

  // Cancelled at the end of the period: still ACTIVE until then, nothing charged, then CANCELLED.
  const scheduled = await servicepay.plans.cancel(planId, { at: 'period_end' });
  expect(scheduled.status).toBe('ACTIVE');
  const cancelAt = scheduled.cancelAt!;
  expect(cancelAt).toBe(scheduled.nextChargeDate);
  await expect.poll(() => events()).toContain('subscription.updated');
  await advanceTo(cancelAt - MINUTE, 'none');
  expect((await servicepay.plans.retrieve(planId)).status).toBe('ACTIVE');
  const ended = await advanceTo(cancelAt + MINUTE, 'none');
  expect(ended.plan.status).toBe('CANCELLED');
  expect(ended.lastTransaction!.subscriptionTransactionId).toBe(paid.lastTransaction!.subscriptionTransactionId);
  await expect.poll(() => events()).toContain('subscription.cancelled');
  await expect.poll(() => loggedSubjects(page)).toContain('Su suscripción a Gimnasio Norte fue cancelada');

  // The event list says the same, every page of it.
  const listed: string[] = [];
  for await (const event of servicepay.webhooks.list({ subscriptionPlanId: planId, limit: 5 })) listed.push(event.event);
  expect(listed.sort()).toEqual([...events()].sort());

  // The other merchant's plan fell due on this clock long ago, and was not charged by it.
  expect(new Date((await servicepay.testClock.retrieve()).frozenTime!).getTime()).toBeGreaterThan((await otherClient.plans.retrieve(otherLink.subscriptionPlanId)).nextChargeDate!);
  expect(await otherClient.plans.status(otherLink.subscriptionPlanId)).toEqual(otherBefore);
  expect(await loggedSubjects(page)).not.toContain('Recibo de su pago a Otro comercio');
});
