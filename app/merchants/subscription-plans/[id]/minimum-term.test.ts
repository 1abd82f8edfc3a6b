import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { subscriptionPlans } from '@/db/schema';
import { POST as manageCancel } from '@/app/manage/[token]/cancel/route';
import { createManageLink } from '@/lib/auth/manage-links';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { addInterval, MONTHLY } from '@/lib/calendar/interval';
import { payCheckout, payWithCard } from '@/lib/checkout/payments';
import { loadManagePage } from '@/lib/customers/manage-page';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { planTransactions, postLink, postToPlan } from '@/test/plans';
import { POST as cancel } from './cancel/route';
import { GET } from './route';

// Minimum term (docs/billing.md#minimum-term): a cancel before the term ends takes effect at its
// end, the periods up to it still charged; the merchant can still cancel `now`.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });
const card = () => parseCard(cardForm(CARDS.approved))!;

/** A paid monthly plan with a 3-period minimum term. */
async function committed(plan: Record<string, unknown> = { minimumPeriods: 3 }) {
  const link = await createTestLink(database.db, plan);
  const paid = await payWithCard(database.db, sandbox, { token: link.token, card: card() });
  expect(paid.status).toBe('APPROVED');
  return link;
}

describe('a plan with a minimum term', () => {
  it('shows the term from the first payment; a cancel before its end waits for it, the periods until then are charged', async () => {
    const link = await committed();
    const plan = await link.plan();
    const [first] = await planTransactions(database.db, link.subscriptionPlanId);
    const termEnd = addInterval(first!.chargeDate, MONTHLY, plan.billingAnchorDay, 3);
    expect(plan.termEndsAt).toEqual(termEnd);
    const record = await call(GET, { headers: link.merchant.headers, params: { id: link.subscriptionPlanId } });
    expect(record.json).toMatchObject({ minimumPeriods: 3, minimumTermEndsAt: termEnd.getTime() });

    const res = await postToPlan(cancel, link, { reason: 'Cambia de proveedor' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'ACTIVE', cancelAt: termEnd.getTime(), nextChargeDate: plan.nextChargeDate!.getTime() });
    // `period_end` in the term is the term's end too, and asked again changes nothing.
    expect((await postToPlan(cancel, link, { at: 'period_end' })).json.cancelAt).toBe(termEnd.getTime());

    // The second and third periods are charged; at the term's end the plan is cancelled instead.
    for (let due = plan.nextChargeDate!; due < termEnd; due = (await link.plan()).nextChargeDate!) {
      await runRenewalSweep(database.db, sandbox, { now: new Date(due.getTime() + 1000) });
    }
    expect((await planTransactions(database.db, link.subscriptionPlanId)).map((t) => [t.kind, t.status])).toEqual([
      ['INITIAL', 'APPROVED'],
      ['RENEWAL', 'APPROVED'],
      ['RENEWAL', 'APPROVED'],
    ]);
    expect((await link.plan()).status).toBe('ACTIVE');
    const summary = await runRenewalSweep(database.db, sandbox, { now: new Date(termEnd.getTime() + 1000) });
    expect(summary.cancelledPlanIds).toContain(link.subscriptionPlanId);
    expect(await link.plan()).toMatchObject({ status: 'CANCELLED', cancelReason: 'Cambia de proveedor' });
    expect(await planTransactions(database.db, link.subscriptionPlanId)).toHaveLength(3);
  });

  it('is cancelled at once with at: "now", and by a merchant on an older version, which knows no terms', async () => {
    const now = await committed();
    expect((await postToPlan(cancel, now, { at: 'now' })).json).toMatchObject({ status: 'CANCELLED' });

    const older = await committed();
    const old = { 'ServicePay-Version': '2026-11-26' };
    const record = await call(GET, { headers: { ...older.merchant.headers, ...old }, params: { id: older.subscriptionPlanId } });
    expect(record.json).not.toHaveProperty('minimumPeriods');
    expect(record.json).not.toHaveProperty('minimumTermEndsAt');
    expect((await postToPlan(cancel, older, undefined, old)).json).toMatchObject({ status: 'CANCELLED' });
  });

  it('starts at the end of a free trial, which may still be cancelled at once', async () => {
    const link = await createTestLink(database.db, { minimumPeriods: 2, trialDays: 7 });
    const started = await payCheckout(database.db, sandbox, { token: link.token, payment: { instrument: { type: 'CARD', card: card() } }, lang: 'es' });
    expect(started.status).toBe('TRIALING');
    const trialEnd = (await link.plan()).trialEndsAt!;
    expect((await link.plan()).termEndsAt).toBeNull();
    await runRenewalSweep(database.db, sandbox, { now: new Date(trialEnd.getTime() + 1000) });
    const plan = await link.plan();
    expect(plan.status).toBe('ACTIVE');
    expect(plan.termEndsAt).toEqual(addInterval(trialEnd, MONTHLY, plan.billingAnchorDay, 2));

    const trialing = await createTestLink(database.db, { minimumPeriods: 2, trialDays: 7 });
    await payCheckout(database.db, sandbox, { token: trialing.token, payment: { instrument: { type: 'CARD', card: card() } }, lang: 'es' });
    expect((await postToPlan(cancel, trialing)).json.status).toBe('CANCELLED');
  });

  it('on the manage page: the term and its end are shown, and a cancel, even one asked for at once, waits for it', async () => {
    const link = await committed();
    const plan = await link.plan();
    const manage = await createManageLink(database.db, plan, { source: 'merchant' });
    const token = new URL(manage.url).pathname.split('/').pop()!;
    const page = await loadManagePage(database.db, token, { chosenLang: null, confirmCancel: true });
    expect(page).toMatchObject({ termEnd: plan.termEndsAt!.getTime(), periodEnd: plan.termEndsAt!.getTime(), confirming: false });

    const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin', host: 'localhost:3000' };
    const res = await call(manageCancel, { method: 'POST', path: `/manage/${token}/cancel`, headers, params: { token }, body: 'lang=es' });
    expect(res.headers.get('location')).toBe(`/manage/${token}?done=cancelAtTermEnd`);
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', cancelAt: plan.termEndsAt });
    expect(await loadManagePage(database.db, token, { chosenLang: null, confirmCancel: false })).toMatchObject({ endsAt: plan.termEndsAt!.getTime(), chargedUntilEnd: true });
  });
});

describe('bad input: a 400 naming plan.minimumPeriods, and nothing is created', () => {

  it.each([[{ minimumPeriods: 1 }], [{ minimumPeriods: 37 }], [{ minimumPeriods: 2.5 }], [{ minimumPeriods: '12' }], [{ minimumPeriods: 12, modality: 'SINGLE' }]])('%j', async (plan) => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, plan);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path: 'plan.minimumPeriods' })]);
    expect(await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.merchantId, merchant.merchantId))).toEqual([]);
  });
});
