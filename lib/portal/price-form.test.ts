import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { transactions } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { DAY_MS } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { changePriceFromForm, priceChangeBodyOf } from './price-form';

// The plan page's price and seats form (docs/portal.md#activity-and-transactions): whole pesos as
// typed, the API's rules (docs/billing.md#price-changes, #quantity), refusals named with the form's labels.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });
const LABELS = { amount: 'Nuevo precio (pesos)', quantity: 'Puestos', effective: 'Desde cuándo' };

async function paidWeekly(plan: Record<string, unknown> = {}) {
  const link = await createTestLink(database.db, { amount: 1_000_000, interval: { unit: 'week', count: 1 }, ...plan });
  const paid = await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))!, now: new Date(Date.now() - 2 * DAY_MS) });
  expect(paid.status).toBe('APPROVED');
  return link;
}

describe('priceChangeBodyOf', () => {
  it('reads whole pesos as typed, with or without thousands dots, as cents', () => {
    expect(priceChangeBodyOf({ amount: '34.900', effective: 'now' })).toEqual({ amount: 3_490_000, effective: 'now' });
    expect(priceChangeBodyOf({ amount: ' 34900 ', effective: '' })).toEqual({ amount: 3_490_000, effective: undefined });
    expect(priceChangeBodyOf({ amount: '12,5', effective: 'next_charge' })).toEqual({ amount: '12,5', effective: 'next_charge' });
  });

  it('reads the seats as typed and leaves an empty field out', () => {
    expect(priceChangeBodyOf({ amount: '', quantity: ' 8 ', effective: 'now' })).toStrictEqual({ amount: undefined, quantity: 8, effective: 'now' });
    expect(priceChangeBodyOf({ amount: '10.000', quantity: '', effective: '' })).toStrictEqual({ amount: 1_000_000, quantity: undefined, effective: undefined });
    expect(priceChangeBodyOf({ quantity: 'ocho' })).toMatchObject({ quantity: 'ocho' });
  });
});

describe('changePriceFromForm', () => {
  it('schedules a price from the next charge, or raises it now charging the prorated difference, as the API does', async () => {
    const link = await paidWeekly();
    const scope = { merchantId: link.merchant.merchantId, planId: link.subscriptionPlanId };
    const before = await link.plan();
    const scheduled = await changePriceFromForm(database.db, sandbox, scope, { amount: '12.000', effective: 'next_charge' }, LABELS);
    expect(scheduled).toMatchObject({ ok: true, plan: { amount: 1_000_000, scheduledAmount: 1_200_000, scheduledFrom: before.nextChargeDate } });

    const now = await changePriceFromForm(database.db, sandbox, scope, { amount: '17.000', effective: 'now' }, LABELS);
    expect(now).toMatchObject({ ok: true, plan: { amount: 1_700_000, scheduledAmount: null } });
    const [proration] = await database.db.select().from(transactions).where(eq(transactions.planId, link.subscriptionPlanId)).then((rows) => rows.filter((t) => t.kind === 'PRORATION'));
    // 5 of 7 days ahead: $ 5.000 of the $ 7.000 difference, in whole pesos.
    expect(proration).toMatchObject({ status: 'APPROVED', amount: 500_000 });
  });

  it('raises the seats now, charging the prorated difference of the new total, or schedules them', async () => {
    const link = await paidWeekly({ quantity: 5 });
    const scope = { merchantId: link.merchant.merchantId, planId: link.subscriptionPlanId };
    const scheduled = await changePriceFromForm(database.db, sandbox, scope, { amount: '', quantity: '6', effective: 'next_charge' }, LABELS);
    expect(scheduled).toMatchObject({ ok: true, plan: { quantity: 5, scheduledQuantity: 6, scheduledAmount: 1_000_000 } });
    const now = await changePriceFromForm(database.db, sandbox, scope, { amount: '', quantity: '8', effective: 'now' }, LABELS);
    expect(now).toMatchObject({ ok: true, plan: { amount: 1_000_000, quantity: 8, scheduledAmount: null } });
    const proration = (await database.db.select().from(transactions).where(eq(transactions.planId, link.subscriptionPlanId))).find((t) => t.kind === 'PRORATION')!;
    // About 5 of 7 days ahead of 3 more seats at $ 10.000, in whole pesos.
    const ahead = ((await link.plan()).nextChargeDate!.getTime() - proration.chargeDate.getTime()) / (7 * DAY_MS);
    expect(proration).toMatchObject({ status: 'APPROVED', amount: Math.round((3_000_000 * ahead) / 100) * 100 });
  });

  it('names a refused field with its label, and changes nothing', async () => {
    const link = await paidWeekly();
    const scope = { merchantId: link.merchant.merchantId, planId: link.subscriptionPlanId };
    const before = await link.plan();
    expect(await changePriceFromForm(database.db, sandbox, scope, { amount: 'diez mil', effective: 'now' }, LABELS)).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^Nuevo precio \(pesos\): /)],
    });
    expect(await changePriceFromForm(database.db, sandbox, scope, { amount: '8.000', effective: 'now' }, LABELS)).toEqual({
      ok: false,
      problems: ['Desde cuándo: now only raises a price (there are no credits); lower it with next_charge'],
    });
    expect(await changePriceFromForm(database.db, sandbox, scope, { amount: '', quantity: '0', effective: 'next_charge' }, LABELS)).toEqual({
      ok: false,
      problems: ['Puestos: must be at least 1'],
    });
    expect(await changePriceFromForm(database.db, sandbox, scope, { amount: '', quantity: '', effective: 'now' }, LABELS)).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^Nuevo precio \(pesos\): /)],
    });
    const other = await createTestLink(database.db);
    const foreign = await changePriceFromForm(database.db, sandbox, { merchantId: other.merchant.merchantId, planId: link.subscriptionPlanId }, { amount: '20.000', effective: 'next_charge' }, LABELS);
    expect(foreign.ok).toBe(false);
    expect(await link.plan()).toMatchObject({ amount: before.amount, quantity: 1, scheduledAmount: null, scheduledQuantity: null });
  });
});
