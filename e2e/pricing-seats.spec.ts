import type { APIRequestContext, Page } from '@playwright/test';
import { formatCop } from '../lib/i18n/format';
import { ServicePay, type WebhookEventRecord } from '../packages/node/src/index';
import { dateEs, type Processor, receiptText } from './billing-helpers';
import { CARDS, expectAccessible, expectState, fillCard, payButton } from './checkout-helpers';
import { BASE_URL, expect, test } from './fixtures';
import { mailTo } from './mailbox';
import { acceptConsent, recordedAtWompi, useWompi } from './wompi-helpers';

// Issue 40's journey (docs/billing.md#quantity, #setup-fee, #metered-usage, #receipt-lines,
// #price-changes, #cancel-at-the-end-of-the-period), once per processor, in Chromium at 360 px: the
// merchant's backend (the SDK) makes a 5-seat monthly link with a setup fee and metered usage; the
// customer pays the seats and the fee on the hosted page; the SDK reports usage through the month
// (a repeated key counted once); the test clock (POST /admin/billing/run) renews it with the
// month's usage, and the receipt PDFs list seats, fee and usage; the merchant raises the seats to
// 8 `now` (the prorated difference charged); the customer cancels at the end of the period on the
// manage page, and the plan stays ACTIVE until then, then is CANCELLED with its e-mail and events.
// Every expected figure is computed here from the inputs and the documented rules, not read back.
//
// The test clock sweeps every plan of the server: only this journey's plan and merchant are
// checked, and the clock goes no further than two months after today, as renewal-links.spec.ts's.

test.use({ locale: 'es-CO', viewport: { width: 360, height: 740 } });
test.describe.configure({ mode: 'serial' });

const DAY = 86_400_000;
const MINUTE = 60_000;
const MERCHANT = 'Coworking Centro';
const DESCRIPTION = 'Plan Equipo';

/** The unit price (whole pesos, as Wompi takes), the seats before and after the raise, the fee. */
const UNIT = 4_500_000;
const SEATS = 5;
const RAISED_SEATS = 8;
const SETUP_FEE = 6_000_000;
const USAGE = { unitAmount: 15_000, includedUnits: 1_000 };
/** The month's usage reports: the day of the period each was used on, and its units. */
const REPORTS = [
  { day: 3, quantity: 400 },
  { day: 12, quantity: 350 },
  { day: 25, quantity: 500 },
];
const LIFECYCLE = ['subscription.activated', 'subscription.updated', 'subscription.cancelled'];

const SEAT_TOTAL = UNIT * SEATS;
/** docs/billing.md#setup-fee: the first payment takes the seats and the fee. */
const FIRST = SEAT_TOTAL + SETUP_FEE;
/** docs/billing.md#metered-usage: the renewal adds the units over the included ones, in arrears. */
const UNITS = REPORTS.reduce((sum, r) => sum + r.quantity, 0);
const USAGE_AMOUNT = Math.max(0, UNITS - USAGE.includedUnits) * USAGE.unitAmount;
const RENEWAL = SEAT_TOTAL + USAGE_AMOUNT;

const BOGOTA_MS = 5 * 60 * 60 * 1000;
/** docs/billing.md#renewals: `months` calendar months later on the first charge's Bogotá day, clamped to short months. */
function monthsAfter(first: number, months: number): number {
  const local = new Date(first - BOGOTA_MS);
  const target = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + months, 1);
  const lastDay = new Date(Date.UTC(new Date(target).getUTCFullYear(), new Date(target).getUTCMonth() + 1, 0)).getUTCDate();
  const moved = new Date(target);
  moved.setUTCDate(Math.min(local.getUTCDate(), lastDay));
  moved.setUTCHours(local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds(), local.getUTCMilliseconds());
  return moved.getTime() + BOGOTA_MS;
}

let sequence = 0;

function clock(admin: APIRequestContext) {
  return async (now: number) => {
    const run = await admin.post('/admin/billing/run', { data: { now } });
    expect(run.status(), await run.text()).toBe(200);
    return run.json() as Promise<{ transactionIds: string[]; cancelledPlanIds: string[] }>;
  };
}

async function expectFitsAndAccessible(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
}

for (const processor of ['sandbox', 'wompi'] as Processor[]) {
  test(`5 seats with a setup fee and metered usage, renewed, 8 seats now, cancelled at period end (${processor})`, async ({ page, request, admin }) => {
    test.setTimeout(90_000);
    const run = clock(admin);

    // A merchant of the journey's own, with the lifecycle events chosen, on the sandbox or Wompi.
    const created = await admin.post('/admin/merchants', { data: { name: MERCHANT } });
    expect(created.status()).toBe(201);
    const merchant = (await created.json()) as { merchantId: string; apiKey: string; apiSecret: string };
    expect((await admin.patch(`/admin/merchants/${merchant.merchantId}`, { data: { webhookEvents: LIFECYCLE } })).status()).toBe(200);
    const privateKey = processor === 'wompi' ? (await useWompi(request, admin, merchant.merchantId)).privateKey : null;
    const chargedAtWompi = async () =>
      (await recordedAtWompi(request))
        .filter((r) => r.authorization === `Bearer ${privateKey}` && r.method === 'POST' && r.path === '/v1/transactions' && r.status < 300)
        .map((r) => r.body!.amount_in_cents);
    const servicepay = new ServicePay({ apiKey: merchant.apiKey, apiSecret: merchant.apiSecret, baseUrl: BASE_URL });

    // The merchant's backend makes the link: 5 seats at the unit price, the fee, metered usage.
    const email = `equipo-${processor}-${Date.now().toString(36)}-${++sequence}@example.com`;
    const link = await servicepay.links.create({
      customer: { phone: '+573001234567', email, firstName: 'Ana' },
      plan: { externalReference: `e2e-seats-${processor}-${Date.now().toString(36)}`, description: DESCRIPTION, amount: UNIT, quantity: SEATS, setupFee: SETUP_FEE, usage: USAGE },
    });
    const planId = link.subscriptionPlanId;
    expect(await servicepay.plans.retrieve(planId)).toMatchObject({ status: 'PENDING_ACTIVATION', amount: UNIT, quantity: SEATS, setupFee: SETUP_FEE, usage: USAGE, interval: 'MONTHLY' });

    // The hosted page charges the seats and the fee today, and authorizes the seats alone each month.
    await page.goto(new URL(link.url).pathname);
    await expectState(page, 'ready');
    const price = page.getByRole('region', { name: DESCRIPTION }).locator('p', { hasText: /COP/ }).first();
    await expect(price).toHaveText(`${formatCop(FIRST)}COPhoy`);
    await expect(page.getByTestId('checkout-setup-fee')).toHaveText(`Incluye el cargo de inscripción de ${formatCop(SETUP_FEE)}, que se cobra una sola vez; después, ${formatCop(SEAT_TOTAL)} al mes.`);
    await expect(page.getByText(`Al pagar, autoriza a ${MERCHANT} a cobrar ${formatCop(SEAT_TOTAL)} cada mes`)).toBeVisible();
    await expect(payButton(page)).toHaveText(`Pagar ${formatCop(FIRST)}`);
    await expectFitsAndAccessible(page);
    if (processor === 'wompi') {
      await fillCard(page, { number: '4242 4242 4242 4242', cvc: '123', holder: 'Ana Gómez' });
      await acceptConsent(page);
    } else {
      await fillCard(page, { number: CARDS.approved, holder: 'Ana Gómez' });
    }
    await payButton(page).click();
    await expectState(page, 'approved', 15_000);
    await expect(page.getByRole('status')).toContainText(`${MERCHANT} le cobrará ${formatCop(SEAT_TOTAL)} cada mes.`);

    const paid = await servicepay.plans.status(planId);
    expect(paid).toMatchObject({ plan: { status: 'ACTIVE', amount: UNIT, quantity: SEATS }, lastTransaction: { status: 'APPROVED', amount: FIRST } });
    const first = { id: paid.lastTransaction!.subscriptionTransactionId, chargeDate: paid.lastTransaction!.chargeDate };
    const due = monthsAfter(first.chargeDate, 1);
    expect(paid.plan.nextChargeDate).toBe(due);

    // Usage through the month, by the SDK; the second report sent again with its key counts once.
    const reports = [];
    for (const [i, r] of REPORTS.entries()) {
      reports.push(await servicepay.plans.reportUsage(planId, { quantity: r.quantity, timestamp: new Date(first.chargeDate + r.day * DAY).toISOString(), idempotencyKey: `uso-${planId}-${i}` }));
    }
    const again = await servicepay.plans.reportUsage(planId, { quantity: REPORTS[1]!.quantity, idempotencyKey: `uso-${planId}-1` });
    expect(again.id).toBe(reports[1]!.id);

    // The renewal: the seats plus the month's billable units; the fee is not charged again.
    await run(due + MINUTE);
    await expect
      .poll(async () => {
        const last = (await servicepay.plans.status(planId)).lastTransaction;
        return last && last.subscriptionTransactionId !== first.id ? last.status : 'none yet';
      }, { timeout: 15_000 })
      .toBe('APPROVED');
    const renewed = await servicepay.plans.status(planId);
    expect(renewed.lastTransaction!.amount).toBe(RENEWAL);
    const renewal = { id: renewed.lastTransaction!.subscriptionTransactionId };
    const nextDue = monthsAfter(first.chargeDate, 2);
    expect(renewed.plan).toMatchObject({ status: 'ACTIVE', nextChargeDate: nextDue });

    // The customer's manage page: the seats, both charges, and their receipt PDFs.
    const manageUrl = new URL((await servicepay.plans.manageLink(planId)).url);
    await page.goto(manageUrl.pathname);
    await expect(page.getByTestId('manage-amount')).toHaveText(formatCop(SEAT_TOTAL));
    await expect(page.getByTestId('manage-seats')).toHaveText(`${SEATS} × ${formatCop(UNIT)}`);
    await expect(page.getByTestId('manage-charge')).toHaveCount(2);
    await expectFitsAndAccessible(page);
    const firstReceipt = await receiptText(page, `${manageUrl.pathname}/receipts/${first.id}`);
    for (const fact of [DESCRIPTION, `Cargo fijo: ${SEATS} × ${formatCop(UNIT)}`, `${formatCop(SEAT_TOTAL)} COP`, 'Cargo de inscripción (una vez)', `${formatCop(SETUP_FEE)} COP`, `${formatCop(FIRST)} COP`, first.id]) {
      expect(firstReceipt).toContain(fact);
    }
    expect(firstReceipt).not.toContain('Uso del periodo');
    const renewalReceipt = await receiptText(page, `${manageUrl.pathname}/receipts/${renewal.id}`);
    for (const fact of [
      `Cargo fijo: ${SEATS} × ${formatCop(UNIT)}`,
      `${formatCop(SEAT_TOTAL)} COP`,
      `Uso del periodo: ${UNITS} unidades`,
      `${formatCop(USAGE_AMOUNT)} COP`,
      `${formatCop(RENEWAL)} COP`,
      `${dateEs.format(due)} – ${dateEs.format(nextDue)}`,
      renewal.id,
    ]) {
      expect(renewalReceipt).toContain(fact);
    }
    expect(renewalReceipt).not.toContain('Cargo de inscripción');

    // 8 seats `now`: the 3 more seats for the rest of the period (docs/billing.md#price-changes),
    // (new − old) × (next due − now) / period, the share kept within 0..1, in whole pesos. The test
    // clock renewed ahead of the real time the change runs at, so the whole difference is due.
    const prorated = (at: number) => Math.round(((RAISED_SEATS - SEATS) * UNIT * Math.min(1, Math.max(0, (nextDue - at) / (nextDue - due)))) / 100) * 100;
    const before = Date.now();
    await servicepay.plans.changePrice(planId, { quantity: RAISED_SEATS, effective: 'now' });
    const after = Date.now();
    // Applied once its charge is approved (Wompi's may be PENDING a moment).
    await expect.poll(async () => (await servicepay.plans.retrieve(planId)).quantity, { timeout: 15_000 }).toBe(RAISED_SEATS);
    expect(await servicepay.plans.retrieve(planId)).toMatchObject({ amount: UNIT, nextChargeDate: nextDue });

    // The customer cancels at the end of the period: the plan stays ACTIVE until then.
    await page.goto(manageUrl.pathname);
    await expect(page.getByTestId('manage-seats')).toHaveText(`${RAISED_SEATS} × ${formatCop(UNIT)}`);
    await expect(page.getByTestId('manage-charge')).toHaveCount(3);
    await page.getByRole('button', { name: `Cancelar el ${dateEs.format(nextDue)}, al final del periodo` }).click();
    // (The Wompi method form has a status of its own, empty.)
    await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveText('Listo: su suscripción termina al final del periodo y no se harán más cobros.');
    await expect(page.getByRole('heading', { name: `Su suscripción termina el ${dateEs.format(nextDue)}` })).toBeVisible();
    await expect(page.getByTestId('manage-ends-on')).toHaveText(dateEs.format(nextDue));
    await expectFitsAndAccessible(page);
    const scheduled = await servicepay.plans.status(planId);
    expect(scheduled.plan).toMatchObject({ status: 'ACTIVE', cancelAt: nextDue, nextChargeDate: nextDue, quantity: RAISED_SEATS });

    const ran = await run(nextDue - MINUTE);
    expect(ran.cancelledPlanIds).not.toContain(planId);
    expect((await servicepay.plans.status(planId)).plan.status).toBe('ACTIVE');
    const ended = await run(nextDue + MINUTE);
    expect(ended.cancelledPlanIds).toContain(planId);
    const cancelled = await servicepay.plans.status(planId);
    expect(cancelled.plan).toMatchObject({ status: 'CANCELLED', nextChargeDate: null });
    expect(cancelled.plan.cancelAt).toBeUndefined();
    // Nothing charged at the end: the last charge is still the one made before it.
    expect(cancelled.lastTransaction).toEqual(scheduled.lastTransaction);

    // The events: three charges, the activation, the seats and the scheduled end, the cancellation.
    const events: WebhookEventRecord[] = [];
    for await (const event of servicepay.webhooks.list({ subscriptionPlanId: planId })) events.push(event);
    const bodies = events.map((e) => JSON.parse(e.body) as { event: string; data: Record<string, unknown>; timestamp: number });
    const charges = bodies.filter((b) => b.event === 'subscription.charge.approved');
    expect(charges.map((b) => b.data.subscriptionTransactionId)).toEqual(expect.arrayContaining([first.id, renewal.id]));
    expect(charges).toHaveLength(3);
    const proration = charges.find((b) => b.data.subscriptionTransactionId !== first.id && b.data.subscriptionTransactionId !== renewal.id)!;
    const prorationAmount = proration.data.amount as number;
    expect(prorationAmount).toBeGreaterThanOrEqual(prorated(after));
    expect(prorationAmount).toBeLessThanOrEqual(prorated(before));
    expect(charges.map((b) => b.data.amount as number).sort((a, b) => a - b)).toEqual([FIRST, RENEWAL, prorationAmount].sort((a, b) => a - b));
    expect(bodies.map((b) => b.event).filter((type) => type !== 'subscription.charge.approved').sort()).toEqual(
      ['subscription.activated', 'subscription.cancelled', 'subscription.updated', 'subscription.updated'],
    );
    const updates = bodies.filter((b) => b.event === 'subscription.updated').map((b) => b.data);
    expect(updates).toContainEqual(expect.objectContaining({ status: 'ACTIVE', change: { amount: UNIT, quantity: RAISED_SEATS, description: DESCRIPTION, effective: 'now', effectiveAt: null } }));
    expect(updates).toContainEqual(expect.objectContaining({ status: 'ACTIVE', cancelAt: nextDue }));
    expect(bodies.find((b) => b.event === 'subscription.cancelled')!.data).toMatchObject({ status: 'CANCELLED', nextChargeDate: null, reason: 'Cancelled by the customer' });
    if (processor === 'wompi') expect(await chargedAtWompi()).toEqual([FIRST, RENEWAL, prorationAmount]);

    // The customer's e-mails: three receipts, the new price today, and the end at the period's end.
    const mails = await mailTo(email, 5);
    expect(mails).toHaveLength(5);
    const receipts = mails.filter((m) => m.subject === `Recibo de su pago a ${MERCHANT}`).map((m) => /Recibimos su pago de (\$ [\d.]+)/.exec(m.text ?? '')?.[1]);
    expect(receipts.sort()).toEqual([FIRST, RENEWAL, prorationAmount].map((amount) => formatCop(amount)).sort());
    const change = mails.find((m) => m.subject === `Cambia el valor de su suscripción a ${MERCHANT}`);
    expect(change?.text).toContain(`pasa de ${formatCop(SEAT_TOTAL)} a ${formatCop(RAISED_SEATS * UNIT)} al mes`);
    expect(change?.text).toContain('El nuevo valor rige desde hoy.');
    const ending = mails.find((m) => m.subject === `Su suscripción a ${MERCHANT} fue cancelada`);
    expect(ending?.text).toContain(`Su suscripción «${DESCRIPTION}» (${formatCop(RAISED_SEATS * UNIT)} al mes) fue cancelada.`);
    expect(ending?.text).toContain('Terminó al final del periodo pagado, como se pidió.');
  });
}
