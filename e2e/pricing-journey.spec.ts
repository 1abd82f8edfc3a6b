import type { APIRequestContext, Page } from '@playwright/test';
import { formatCop } from '../lib/i18n/format';
import { dateEs, type Processor, receiptText } from './billing-helpers';
import { CARDS, expectAccessible, expectState, fillCard } from './checkout-helpers';
import { expect, test } from './fixtures';
import { mailTo } from './mailbox';
import { createKey, signUp } from './portal-helpers';
import { acceptConsent, recordedAtWompi, useWompi } from './wompi-helpers';

// Issue 32's journey (docs/billing.md#intervals, #trials, #coupons, #price-changes; docs/portal.md),
// once per processor, in Chromium at 360 px: a merchant of its own signs up, makes a 20 % coupon
// for 3 charges and a weekly link with a 7-day trial; the customer starts the trial on the hosted
// page with a card (nothing charged); then the test clock (POST /admin/billing/run) brings the
// trial-ending e-mail, the first charge at trial end, the weekly renewals; a receipt PDF is read
// as text; a price increase `now` (by API, or on the portal's plan page for the Wompi merchant)
// charges its prorated difference; and the overview's MRR is the
// journey's own arithmetic at each step. Every expected figure is computed here from the inputs
// and the documented rules, not read back from the app.
//
// The test clock sweeps every plan of the server: only this journey's plan and merchant are
// checked, and the clock goes no further than 4 weeks after today (monthly plans of other
// journeys are not due before a month).

test.use({ locale: 'es-CO', viewport: { width: 360, height: 740 } });
test.describe.configure({ mode: 'serial' });

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const MINUTE = 60_000;
const MERCHANT = 'Gimnasio Norte';

/** The plan's list price (whole pesos), the coupon's percentage and periods, the new price. */
const LIST = 2_990_000;
const PERCENT = 20;
const PERIODS = 3;
const TRIAL_DAYS = 7;
const RAISED = 3_490_000;

/** docs/billing.md#coupons: a percentage rounded half up to whole pesos on a whole-peso price. */
const discountOf = (amount: number) => (amount % 100 === 0 ? Math.round((amount * PERCENT) / 10_000) * 100 : Math.round((amount * PERCENT) / 100));
/** docs/billing.md#intervals: a weekly amount brought to a month, × 52 / 12, rounded to a cent once. */
const monthlyOfWeekly = (amount: number) => Math.round((amount * 52) / 12);

const DISCOUNTED = LIST - discountOf(LIST);

/**
 * docs/billing.md#coupons: the plan keeps `discount_periods` (3 for `repeating` 3) and every
 * APPROVED charge that carried the discount uses one, whatever its kind. The trial's end is the
 * plan's first charge (a RENEWAL of the first week), so "3 periods" is three discounted weekly
 * charges in all: the trial's end and the two renewals after it; the fourth is at list price.
 */
const WEEKLY_CHARGES = [...Array.from({ length: PERIODS }, () => ({ amount: DISCOUNTED, discount: LIST - DISCOUNTED })), { amount: LIST, discount: 0 }];

let sequence = 0;

function clock(admin: APIRequestContext) {
  return async (now: number) => {
    const run = await admin.post('/admin/billing/run', { data: { now } });
    expect(run.status(), await run.text()).toBe(200);
    return run.json() as Promise<{ transactionIds: string[] }>;
  };
}

/** The overview's MRR and trials, as the merchant sees them. */
async function expectOverview(page: Page, { mrr, trialing, trialMrr, active, upcoming }: { mrr: number; trialing: number; trialMrr: number; active: number; upcoming?: number }) {
  await page.goto('/portal/overview');
  // The plan's next charge in the upcoming renewals: what it will take, net of the coupon.
  if (upcoming !== undefined) await expect(page.getByRole('region', { name: 'Próximas renovaciones' }).getByRole('row').filter({ hasText: 'e2e-pricing-' })).toContainText(formatCop(upcoming));
  await expect(page.getByTestId('stat-mrr').locator('.value')).toHaveText(formatCop(mrr));
  await expect(page.getByTestId('stat-active').locator('.value')).toHaveText(String(active));
  await expect(page.getByTestId('stat-trialing').locator('.value')).toHaveText(String(trialing));
  await expect(page.getByTestId('stat-trialing')).toContainText(`Sumarían ${formatCop(trialMrr)} al MRR`);
}

for (const processor of ['sandbox', 'wompi'] as Processor[]) {
  test(`weekly plan, 7-day trial, 20 % coupon for 3 charges, price increase now (${processor})`, async ({ page, request, admin }) => {
    test.setTimeout(150_000);
    const run = clock(admin);

    // A merchant of the journey's own, so the overview holds only this plan.
    await signUp(page, MERCHANT);
    const key = await createKey(page);
    const auth = { Authorization: key.authorization };
    let privateKey: string | null = null;
    if (processor === 'wompi') {
      await page.goto('/portal/settings/processor');
      const eventsUrl = (await page.getByTestId('events-url').textContent())!;
      const merchantId = /\/processors\/wompi\/events\/([^/\s]+)$/.exec(eventsUrl.trim())![1]!;
      privateKey = (await useWompi(request, admin, merchantId)).privateKey;
    }
    const chargesAtWompi = async () =>
      (await recordedAtWompi(request)).filter((r) => r.authorization === `Bearer ${privateKey}` && r.method === 'POST' && r.path === '/v1/transactions' && r.status < 300);

    // The coupon, by API: 20 % off for 3 charges.
    const code = `SEMANA${Date.now().toString(36).toUpperCase()}${++sequence}`;
    const coupon = await request.post('/merchants/coupons', { headers: auth, data: { code, percentOff: PERCENT, duration: 'repeating', durationInPeriods: PERIODS } });
    expect(coupon.status(), await coupon.text()).toBe(201);

    // The weekly link with a 7-day trial and the coupon.
    const email = `precios-${processor}-${Date.now().toString(36)}-${sequence}@example.com`;
    const created = await request.post('/merchants/subscription-link', {
      headers: auth,
      data: {
        customer: { phone: '+573001234567', email, firstName: 'Ana' },
        plan: { externalReference: `e2e-pricing-${processor}-${Date.now().toString(36)}`, description: 'Plan semanal', amount: LIST, interval: { unit: 'week', count: 1 }, trialDays: TRIAL_DAYS, coupon: code.toLowerCase() },
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    const link = (await created.json()) as { token: string; subscriptionPlanId: string };
    const planId = link.subscriptionPlanId;
    const record = async () => {
      const res = await request.get(`/merchants/subscription-plans/${planId}`, { headers: auth });
      expect(res.status()).toBe(200);
      return res.json();
    };
    const status = async () => (await request.get(`/merchants/plans/${planId}/status`, { headers: auth })).json();

    // The hosted page: the trial, the list price, the discount and the first charge; nothing today.
    await page.goto(`/pay/${link.token}`);
    await expectState(page, 'ready');
    await expect(page.getByText(`Gratis por ${TRIAL_DAYS} días, luego ${formatCop(LIST)} cada semana`)).toBeVisible();
    await expect(page.getByText(/Hoy no se le cobra nada/)).toBeVisible();
    const lines = page.getByTestId('checkout-discount');
    await expect(lines).toContainText(`Precio${formatCop(LIST)} cada semana`);
    await expect(lines).toContainText(`Descuento (${code})−${formatCop(LIST - DISCOUNTED)}`);
    await expect(lines).toContainText(`Primer cobro, al terminar la prueba${formatCop(DISCOUNTED)}`);
    await expect(lines).toContainText(`Después${formatCop(DISCOUNTED)} en los próximos ${PERIODS - 1} cobros; luego ${formatCop(LIST)} cada semana`);
    // Nothing on the page says a charge is made today.
    await expect(page.getByText('Paga hoy')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page);

    const started = Date.now();
    if (processor === 'wompi') {
      await fillCard(page, { number: '4242 4242 4242 4242', cvc: '123', holder: 'Ana Gómez' });
      await acceptConsent(page);
    } else {
      await fillCard(page, { number: CARDS.approved, holder: 'Ana Gómez' });
    }
    await page.getByRole('button', { name: 'Empezar la prueba gratis' }).click();
    await expectState(page, 'approved', 15_000);
    await expect(page.getByRole('status')).toContainText('¡Su prueba gratis empezó!');
    const startedBy = Date.now();

    // TRIALING, nothing charged, the first charge at the trial's end.
    const trialing = await status();
    expect(trialing.plan.status).toBe('TRIALING');
    expect(trialing.lastTransaction ?? null).toBeNull();
    const trialEnd = trialing.plan.trial.endsAt as number;
    expect(trialEnd).toBeGreaterThanOrEqual(started + TRIAL_DAYS * DAY);
    expect(trialEnd).toBeLessThanOrEqual(startedBy + TRIAL_DAYS * DAY);
    expect(await record()).toMatchObject({ status: 'TRIALING', nextChargeDate: trialEnd, amount: LIST, interval: { unit: 'week', count: 1 } });
    if (processor === 'wompi') expect(await chargesAtWompi()).toEqual([]);
    const [welcome] = await mailTo(email, 1);
    expect(welcome!.subject).toBe(`Comenzó su prueba gratis con ${MERCHANT}`);
    expect(welcome!.text).toContain(`se cobrarán ${formatCop(DISCOUNTED)}`);

    // Trials are counted apart: no MRR yet; what the trial would add is net of the coupon.
    await expectOverview(page, { mrr: 0, active: 0, trialing: 1, trialMrr: monthlyOfWeekly(DISCOUNTED) });

    // 3 days before the trial ends, not a minute earlier, the customer is told the first charge.
    const trialEmails = async () => {
      await page.goto(`/portal/activity/plans/${planId}`);
      return page.getByTestId('customer-email').filter({ hasText: 'Fin de la prueba gratis en 3 días' }).count();
    };
    await run(trialEnd - 3 * DAY - MINUTE);
    expect(await trialEmails()).toBe(0);
    await run(trialEnd - 3 * DAY + MINUTE);
    expect(await trialEmails()).toBe(1);
    const [, ending] = await mailTo(email, 2);
    expect(ending!.subject).toBe(`Su prueba gratis con ${MERCHANT} termina el ${dateEs.format(trialEnd)}`);
    expect(ending!.text).toContain(`Ese día se cobrarán ${formatCop(DISCOUNTED)}`);
    expect((await status()).lastTransaction ?? null).toBeNull();

    // The trial's end and the weekly renewals: each due a week after the last, charged as computed.
    const charges: { id: string; due: number }[] = [];
    let due = trialEnd;
    for (const [i, expected] of WEEKLY_CHARGES.entries()) {
      await run(due + MINUTE);
      // A new charge of this plan, settled (Wompi's may be PENDING for a moment).
      const seen = charges.map((c) => c.id);
      await expect
        .poll(async () => {
          const last = (await status()).lastTransaction;
          return last && !seen.includes(last.subscriptionTransactionId) ? last.status : 'none yet';
        }, { timeout: 15_000 })
        .toBe('APPROVED');
      const { lastTransaction, plan } = await status();
      expect(lastTransaction.amount, `charge ${i + 1}`).toBe(expected.amount);
      expect(plan.status).toBe('ACTIVE');
      charges.push({ id: lastTransaction.subscriptionTransactionId, due });
      due += WEEK;
      expect((await record()).nextChargeDate).toBe(due);
      // MRR follows the next charge: discounted while a discounted charge remains, then the list price.
      if (i === 0) await expectOverview(page, { mrr: monthlyOfWeekly(DISCOUNTED), active: 1, trialing: 0, trialMrr: 0, upcoming: DISCOUNTED });
    }
    if (processor === 'wompi') {
      // What Wompi was asked to charge: the same figures, on the saved payment source.
      expect((await chargesAtWompi()).map((r) => r.body!.amount_in_cents)).toEqual(WEEKLY_CHARGES.map((c) => c.amount));
    }
    await expectOverview(page, { mrr: monthlyOfWeekly(LIST), active: 1, trialing: 0, trialMrr: 0, upcoming: LIST });

    // The receipt PDF of the trial's end, from the customer's manage page: its text holds the list
    // price, the discount, what was charged and the week it paid for.
    const manage = await request.post(`/merchants/subscription-plans/${planId}/manage-link`, { headers: auth });
    expect(manage.status()).toBe(201);
    const manageUrl = new URL((await manage.json()).url as string);
    await page.goto(manageUrl.pathname);
    await expect(page.getByTestId('manage-charge')).toHaveCount(WEEKLY_CHARGES.length);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    const firstReceipt = await receiptText(page, `${manageUrl.pathname}/receipts/${charges[0]!.id}`);
    for (const fact of [
      'Plan semanal',
      `Precio de lista`,
      `${formatCop(LIST)} COP`,
      `-${formatCop(LIST - DISCOUNTED)} COP`,
      `Valor cobrado`,
      `${formatCop(DISCOUNTED)} COP`,
      `${dateEs.format(trialEnd)} – ${dateEs.format(trialEnd + WEEK)}`,
      charges[0]!.id,
    ])
      expect(firstReceipt).toContain(fact);

    // A price increase applied now: the difference for the rest of the current week, by the rule
    // of docs/billing.md#price-changes, (new − old) × (next due − now) / week, the share kept
    // within 0..1. The test clock has charged weeks ahead of the real time the PATCH runs at, so
    // the current week has not begun and the whole difference is due.
    const nextDue = (await record()).nextChargeDate as number;
    const prorated = (at: number) => Math.round((RAISED - LIST) * Math.min(1, Math.max(0, (nextDue - at) / WEEK)));
    // The merchant's backend raises it by API (sandbox); the Wompi merchant in the portal's plan page.
    let before: number;
    let after: number;
    if (processor === 'sandbox') {
      before = Date.now();
      const patched = await request.patch(`/merchants/subscription-plans/${planId}`, { headers: auth, data: { amount: RAISED, effective: 'now' } });
      after = Date.now();
      expect(patched.status(), await patched.text()).toBe(200);
    } else {
      await page.goto(`/portal/activity/plans/${planId}`);
      const form = page.locator('form').filter({ has: page.getByLabel('Nuevo precio (pesos)') });
      await form.getByLabel('Nuevo precio (pesos)').fill(formatCop(RAISED).replace(/^\$ /, ''));
      await form.getByRole('radio', { name: /^Ahora/ }).check();
      await expectAccessible(page);
      before = Date.now();
      await form.getByRole('button', { name: 'Cambiar el precio' }).click();
      // Applied, or (Wompi may hold the difference's charge PENDING a moment) applied once it is approved.
      const outcomes = [`Listo: el plan ya cuesta ${formatCop(RAISED)}.`, `Se está cobrando la diferencia: el plan costará ${formatCop(RAISED)} en cuanto se apruebe.`];
      await expect(form.getByRole('status')).toHaveText(/\S/, { timeout: 15_000 });
      expect(outcomes).toContain((await form.getByRole('status').textContent())!.trim());
      after = Date.now();
    }
    await expect.poll(async () => (await record()).amount, { timeout: 15_000 }).toBe(RAISED);
    expect((await record()).nextChargeDate).toBe(nextDue);

    // Every charge of the plan as the merchant's export has it: kind, charged amount and discount;
    // the proration among them, found by its kind.
    const csv = (await (await page.request.get('/portal/export/transactions')).text()).trim().split('\r\n');
    const header = csv[0]!.split(',');
    const rows = csv
      .slice(1)
      .map((line) => Object.fromEntries(line.split(',').map((cell, i) => [header[i], cell])))
      .filter((row) => row.subscriptionPlanId === planId);
    const byId = new Map(rows.map((row) => [row.subscriptionTransactionId, row]));
    expect(rows).toHaveLength(WEEKLY_CHARGES.length + 1);
    for (const [i, c] of charges.entries()) {
      expect(byId.get(c.id)).toMatchObject({ kind: 'RENEWAL', status: 'APPROVED', amount: String(WEEKLY_CHARGES[i]!.amount), discount: String(WEEKLY_CHARGES[i]!.discount), listAmount: String(LIST) });
    }
    const prorations = rows.filter((row) => row.kind === 'PRORATION');
    expect(prorations).toHaveLength(1);
    const proration = { id: prorations[0]!.subscriptionTransactionId!, amount: Number(prorations[0]!.amount) };
    expect(prorations[0]).toMatchObject({ status: 'APPROVED', discount: '0', listAmount: String(proration.amount) });
    expect(proration.amount).toBeGreaterThanOrEqual(prorated(after));
    expect(proration.amount).toBeLessThanOrEqual(prorated(before));
    if (processor === 'wompi') expect((await chargesAtWompi()).at(-1)!.body!.amount_in_cents).toBe(proration.amount);

    // The customer is told: the price change (from the old to the new price, today) and the proration's receipt.
    const mails = await mailTo(email, 2 + WEEKLY_CHARGES.length + 2);
    const change = mails.find((m) => m.subject === `Cambia el valor de su suscripción a ${MERCHANT}`);
    expect(change?.text).toContain(`pasa de ${formatCop(LIST)} a ${formatCop(RAISED)} cada semana`);
    expect(mails.filter((m) => m.subject === `Recibo de su pago a ${MERCHANT}`)).toHaveLength(WEEKLY_CHARGES.length + 1);

    // The proration's receipt, from the portal's plan page.
    await page.goto(`/portal/activity/plans/${planId}`);
    const prorationReceipt = await receiptText(page, `/portal/receipts/${proration.id}`);
    expect(prorationReceipt).toContain(`${formatCop(proration.amount)} COP`);
    expect(prorationReceipt).toContain(proration.id);

    // MRR at the new price: the coupon's charges are used up, so nothing is taken off.
    await expectOverview(page, { mrr: monthlyOfWeekly(RAISED), active: 1, trialing: 0, trialMrr: 0 });
    await expectAccessible(page);
  });
}
