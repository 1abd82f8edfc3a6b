import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { coupons, subscriptionPlans, transactions } from '@/db/schema';
import { DELETE } from '@/app/merchants/coupons/[id]/route';
import { GET, POST } from '@/app/merchants/coupons/route';
import { POST as createLink } from '@/app/merchants/subscription-link/route';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { applyPromotionCode } from '@/lib/checkout/promotion-code';
import { payWithCard } from '@/lib/checkout/payments';
import { loadCheckoutSession } from '@/lib/checkout/session';
import { parseCard } from '@/lib/processors/card';
import { saveProcessor } from '@/lib/portal/processor-page';
import { CARDS, cardForm, countingSandbox } from '@/test/checkout';
import { bogota, DAY_MS, later } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, linkBody, type TestMerchant } from '@/test/merchants';
import { testWompiKeys } from '@/test/wompi-double';

// Coupons end to end through the API (docs/billing.md#coupons): created, listed, deleted, applied
// at link creation or by the customer's code, their discount on the first charge and on renewals,
// and the last redemption raced for by concurrent plans (with DATABASE_URL set, real PostgreSQL
// connections race; PGlite serializes them).

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const createCoupon = (m: TestMerchant, body: unknown) => call(POST, { path: '/merchants/coupons', headers: m.headers, body });
const listCoupons = (m: TestMerchant, query = '') => call(GET, { path: `/merchants/coupons${query}`, headers: m.headers });
const deleteCoupon = (m: TestMerchant, id: string) =>
  call(DELETE, { method: 'DELETE', path: `/merchants/coupons/${id}`, headers: m.headers, params: { id } });
const link = (m: TestMerchant, plan: Record<string, unknown>) => call(createLink, { path: '/merchants/subscription-link', headers: m.headers, body: linkBody({ plan }) });
const couponRow = async (id: string) => (await database.db.select().from(coupons).where(eq(coupons.id, id)))[0]!;
const planRow = async (id: string) => (await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id)))[0]!;
const plansOf = (merchantId: string) => database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.merchantId, merchantId));
const chargesOf = (planId: string) => database.db.select().from(transactions).where(eq(transactions.planId, planId)).orderBy(transactions.id);

const TWENTY_FOR_THREE = { code: 'bienvenida20', percentOff: 20, duration: 'repeating', durationInPeriods: 3 };

describe('POST, GET and DELETE /merchants/coupons', () => {
  it('creates a coupon with its code upper case, lists it, and deletes it', async () => {
    const m = await createTestMerchant(database.db);
    const created = await createCoupon(m, { ...TWENTY_FOR_THREE, maxRedemptions: 5, redeemBy: '2099-01-01T00:00:00-05:00' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^cpn_[0-9A-Za-z]{24}$/),
      code: 'BIENVENIDA20',
      percentOff: 20,
      amountOff: null,
      duration: 'repeating',
      durationInPeriods: 3,
      maxRedemptions: 5,
      timesRedeemed: 0,
      redeemBy: '2099-01-01T05:00:00.000Z',
      deleted: false,
      createdAt: expect.any(String),
    });
    const other = await createCoupon(m, { amountOff: 500_000, duration: 'forever' });
    expect(other.json).toMatchObject({ code: null, amountOff: 500_000, durationInPeriods: null });

    const page = await listCoupons(m, '?limit=1');
    expect(page.status).toBe(200);
    expect(page.json.data.map((c: { id: string }) => c.id)).toEqual([other.json.id]);
    const next = await listCoupons(m, `?limit=1&cursor=${page.json.nextCursor}`);
    expect(next.json).toEqual({ data: [created.json], nextCursor: null });

    const deleted = await deleteCoupon(m, created.json.id);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toMatchObject({ id: created.json.id, deleted: true });
    expect((await listCoupons(m)).json.data.map((c: { id: string }) => c.id)).toEqual([other.json.id]);
    expect((await deleteCoupon(m, created.json.id)).status).toBe(404);
    // Its code is free again.
    expect((await createCoupon(m, TWENTY_FOR_THREE)).status).toBe(201);
  });

  it('refuses a second live coupon with the same code, whatever its case (409)', async () => {
    const m = await createTestMerchant(database.db);
    expect((await createCoupon(m, TWENTY_FOR_THREE)).status).toBe(201);
    const again = await createCoupon(m, { ...TWENTY_FOR_THREE, code: 'BienVenida20', percentOff: 10 });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    // Another merchant may use the same code.
    expect((await createCoupon(await createTestMerchant(database.db), TWENTY_FOR_THREE)).status).toBe(201);
  });

  it.each([
    [{ duration: 'once' }, 'amountOff', 'send percentOff or amountOff'],
    [{ percentOff: 10, amountOff: 100, duration: 'once' }, 'amountOff', 'send percentOff or amountOff, not both'],
    [{ percentOff: 0, duration: 'once' }, 'percentOff', 'must be 1 to 99'],
    [{ percentOff: 100, duration: 'once' }, 'percentOff', 'must be 1 to 99'],
    [{ percentOff: 12.5, duration: 'once' }, 'percentOff', 'must be a whole number'],
    [{ amountOff: '5000', duration: 'once' }, 'amountOff', 'must be a number of cents (not a string)'],
    [{ amountOff: 0, duration: 'once' }, 'amountOff', 'must be at least 1 cent'],
    [{ percentOff: 10 }, 'duration', 'is required'],
    [{ percentOff: 10, duration: 'monthly' }, 'duration', 'must be once, repeating or forever'],
    [{ percentOff: 10, duration: 'repeating' }, 'durationInPeriods', 'is required when duration is repeating'],
    [{ percentOff: 10, duration: 'repeating', durationInPeriods: 37 }, 'durationInPeriods', 'must be 1 to 36'],
    [{ percentOff: 10, duration: 'forever', durationInPeriods: 3 }, 'durationInPeriods', 'is only for duration repeating'],
    [{ percentOff: 10, duration: 'once', maxRedemptions: 0 }, 'maxRedemptions', 'must be at least 1'],
    [{ percentOff: 10, duration: 'once', redeemBy: 'next week' }, 'redeemBy', 'must be an ISO 8601 date and time, such as 2026-12-31T23:59:59Z'],
    [{ percentOff: 10, duration: 'once', redeemBy: '2020-01-01T00:00:00Z' }, 'redeemBy', 'must be in the future'],
    [{ percentOff: 10, duration: 'once', code: 'no spaces' }, 'code', 'must be 3 to 40 letters, digits, - or _'],
    [{ percentOff: 10, duration: 'once', code: 'AB' }, 'code', 'must be 3 to 40 letters, digits, - or _'],
  ])('refuses %j with a 400 naming %s, and creates nothing', async (body, path, message) => {
    const m = await createTestMerchant(database.db);
    const res = await createCoupon(m, body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect(res.json.error.details).toContainEqual({ path, message });
    expect(await database.db.select().from(coupons).where(eq(coupons.merchantId, m.merchantId))).toEqual([]);
  });

  it('answers 403 for another merchant’s coupon and deletes nothing; 404 for an unknown or malformed id', async () => {
    const owner = await createTestMerchant(database.db);
    const other = await createTestMerchant(database.db);
    const { json } = await createCoupon(owner, TWENTY_FOR_THREE);
    const res = await deleteCoupon(other, json.id);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('forbidden');
    expect((await couponRow(json.id)).deletedAt).toBeNull();
    expect((await deleteCoupon(other, 'cpn_000000000000000000000000')).status).toBe(404);
    expect((await deleteCoupon(other, 'nope')).status).toBe(404);
    expect((await listCoupons(other)).json.data).toEqual([]);
  });

  it('refuses a bad page query with a 400', async () => {
    const m = await createTestMerchant(database.db);
    expect((await listCoupons(m, '?limit=0')).status).toBe(400);
    expect((await listCoupons(m, '?cursor=evt_123')).status).toBe(400);
  });
});

describe('a coupon applied at link creation', () => {
  it('redeems it by code or id, keeps the plan’s list price, and shows the discount in the session', async () => {
    const m = await createTestMerchant(database.db);
    const { json: coupon } = await createCoupon(m, { ...TWENTY_FOR_THREE, maxRedemptions: 2 });
    const byCode = await link(m, { amount: 2_990_000, coupon: 'Bienvenida20' });
    expect(byCode.status).toBe(200);
    const byId = await link(m, { amount: 2_990_000, coupon: coupon.id });
    expect(byId.status).toBe(200);
    expect((await couponRow(coupon.id)).timesRedeemed).toBe(2);
    expect(await planRow(byCode.json.subscriptionPlanId)).toMatchObject({
      amount: 2_990_000,
      couponId: coupon.id,
      discountPercent: 20,
      discountAmount: null,
      discountPeriods: 3,
      discountPeriodsUsed: 0,
    });
    const session = await loadCheckoutSession(database.db, byCode.json.token);
    expect(session).toMatchObject({
      amount: 2_990_000,
      discount: { code: 'BIENVENIDA20', listAmount: 2_990_000, discount: 598_000, amountDue: 2_392_000, amountLater: 2_990_000, discountedCharges: 3 },
    });
    expect(session.promotionCodes).toBeUndefined();
  });

  it('refuses an expired, exhausted, deleted, unknown or another merchant’s coupon with a 400 naming plan.coupon, and creates no plan', async () => {
    const m = await createTestMerchant(database.db);
    const expired = (await createCoupon(m, { code: 'VIEJO', percentOff: 10, duration: 'once' })).json;
    await database.db.update(coupons).set({ redeemBy: new Date(Date.now() - 1000) }).where(eq(coupons.id, expired.id));
    const used = (await createCoupon(m, { code: 'UNICO', percentOff: 10, duration: 'once', maxRedemptions: 1 })).json;
    expect((await link(m, { coupon: 'UNICO' })).status).toBe(200);
    const gone = (await createCoupon(m, { code: 'BORRADO', percentOff: 10, duration: 'once' })).json;
    await deleteCoupon(m, gone.id);
    const foreign = (await createCoupon(await createTestMerchant(database.db), { code: 'AJENO', percentOff: 10, duration: 'once' })).json;
    const before = (await plansOf(m.merchantId)).length;

    const cases: [string, string][] = [
      ['VIEJO', 'has expired (its redeemBy date has passed)'],
      [expired.id, 'has expired (its redeemBy date has passed)'],
      ['UNICO', 'has been redeemed its maxRedemptions times'],
      [gone.id, 'was deleted'],
      ['BORRADO', 'is not a code of a live coupon'],
      ['AJENO', 'is not a code of a live coupon'],
      [foreign.id, 'is a coupon of another account'],
      ['cpn_000000000000000000000000', 'is not a coupon of this account'],
    ];
    for (const [ref, message] of cases) {
      const res = await link(m, { coupon: ref });
      expect(res.status, ref).toBe(400);
      expect(res.json.error.details, ref).toEqual([{ path: 'plan.coupon', message }]);
    }
    expect(await plansOf(m.merchantId)).toHaveLength(before);
    expect((await couponRow(used.id)).timesRedeemed).toBe(1);
    expect((await couponRow(foreign.id)).timesRedeemed).toBe(0);
  });

  it('refuses a discount that would charge less than the processor takes (400), and gives nothing away', async () => {
    const m = await createTestMerchant(database.db);
    const big = (await createCoupon(m, { code: 'CASIGRATIS', amountOff: 149_950, duration: 'once' })).json;
    const res = await link(m, { amount: 150_000, coupon: 'CASIGRATIS' });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0]).toEqual({ path: 'plan.coupon', message: 'would bring the charge below the minimum the processor takes (100 cents)' });
    expect((await couponRow(big.id)).timesRedeemed).toBe(0);
    // Through Wompi the card minimum is COP 1.500.
    await saveProcessor(database.db, m.merchantId, { type: 'wompi', ...testWompiKeys() });
    await createCoupon(m, { code: 'MITAD', percentOff: 50, duration: 'once' });
    const wompi = await link(m, { amount: 200_000, coupon: 'MITAD' });
    expect(wompi.status).toBe(400);
    expect(wompi.json.error.details[0].message).toBe('would bring the charge below the minimum the processor takes (150000 cents)');
  });

  it('refuses a bad plan.coupon, or a coupon together with allowPromotionCodes, with a 400', async () => {
    const m = await createTestMerchant(database.db);
    for (const [plan, path] of [
      [{ coupon: 12 }, 'plan.coupon'],
      [{ coupon: 'a b' }, 'plan.coupon'],
      [{ coupon: 'BIENVENIDA20', allowPromotionCodes: true }, 'plan.allowPromotionCodes'],
      [{ allowPromotionCodes: 'yes' }, 'plan.allowPromotionCodes'],
    ] as const) {
      const res = await link(m, plan);
      expect(res.status, JSON.stringify(plan)).toBe(400);
      expect(res.json.error.details.map((d: { path: string }) => d.path), JSON.stringify(plan)).toContain(path);
    }
    expect(await plansOf(m.merchantId)).toEqual([]);
  });

  it('gives the last redemption to exactly one of the links racing for it', async () => {
    const m = await createTestMerchant(database.db);
    const last = (await createCoupon(m, { code: 'ULTIMO', percentOff: 10, duration: 'once', maxRedemptions: 3 })).json;
    await database.db.update(coupons).set({ timesRedeemed: 2 }).where(eq(coupons.id, last.id));
    const replies = await Promise.all(Array.from({ length: 8 }, () => link(m, { coupon: 'ULTIMO' })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect((await couponRow(last.id)).timesRedeemed).toBe(3);
    expect((await plansOf(m.merchantId)).filter((p) => p.couponId === last.id)).toHaveLength(1);
  });
});

describe('a code the customer types on the hosted page', () => {
  it('applies a live code to a link that allows it, replaces one with another, and gives the first back', async () => {
    const m = await createTestMerchant(database.db);
    const twenty = (await createCoupon(m, TWENTY_FOR_THREE)).json;
    const flat = (await createCoupon(m, { code: 'MENOS5000', amountOff: 500_000, duration: 'forever' })).json;
    const { json } = await link(m, { amount: 2_990_000, allowPromotionCodes: true });
    expect((await loadCheckoutSession(database.db, json.token)).promotionCodes).toBe(true);
    await applyPromotionCode(database.db, { token: json.token, code: ' bienvenida20 ' });
    expect((await couponRow(twenty.id)).timesRedeemed).toBe(1);
    await applyPromotionCode(database.db, { token: json.token, code: 'menos5000' });
    expect((await couponRow(twenty.id)).timesRedeemed).toBe(0);
    expect((await couponRow(flat.id)).timesRedeemed).toBe(1);
    expect((await loadCheckoutSession(database.db, json.token)).discount).toEqual({
      code: 'MENOS5000', listAmount: 2_990_000, discount: 500_000, amountDue: 2_490_000, amountLater: null, discountedCharges: null,
    });
    // The same code again changes nothing.
    await applyPromotionCode(database.db, { token: json.token, code: 'MENOS5000' });
    expect((await couponRow(flat.id)).timesRedeemed).toBe(1);
  });

  it('refuses a code on a link that does not allow codes, a bad code, and an exhausted one, changing nothing', async () => {
    const m = await createTestMerchant(database.db);
    await createCoupon(m, { code: 'UNO', percentOff: 10, duration: 'once', maxRedemptions: 1 });
    const closed = (await link(m, {})).json;
    await expect(applyPromotionCode(database.db, { token: closed.token, code: 'UNO' })).rejects.toMatchObject({ status: 400, message: 'This link does not take promotion codes' });
    const open = (await link(m, { allowPromotionCodes: true })).json;
    await expect(applyPromotionCode(database.db, { token: open.token, code: '¿?' })).rejects.toMatchObject({ status: 400, problem: 'unknown' });
    await expect(applyPromotionCode(database.db, { token: open.token, code: 'NADA' })).rejects.toMatchObject({ status: 400, problem: 'unknown' });
    await applyPromotionCode(database.db, { token: open.token, code: 'UNO' });
    const second = (await link(m, { allowPromotionCodes: true })).json;
    await expect(applyPromotionCode(database.db, { token: second.token, code: 'UNO' })).rejects.toMatchObject({ status: 400, problem: 'exhausted' });
    expect((await planRow(second.subscriptionPlanId)).couponId).toBeNull();
  });

  it('gives the last redemption to exactly one of the customers racing for it', async () => {
    const m = await createTestMerchant(database.db);
    const last = (await createCoupon(m, { code: 'RAPIDO', percentOff: 15, duration: 'once', maxRedemptions: 1 })).json;
    const links = await Promise.all(Array.from({ length: 6 }, () => link(m, { allowPromotionCodes: true })));
    const outcomes = await Promise.allSettled(links.map(({ json }) => applyPromotionCode(database.db, { token: json.token, code: 'rapido' })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected')) expect((o as PromiseRejectedResult).reason).toMatchObject({ problem: 'exhausted' });
    expect((await couponRow(last.id)).timesRedeemed).toBe(1);
    expect((await plansOf(m.merchantId)).filter((p) => p.couponId === last.id)).toHaveLength(1);
  });
});

describe('the discount on charges', () => {
  it('charges a weekly plan 80 % for its first three charges, then its list price, recording each discount', async () => {
    const m = await createTestMerchant(database.db);
    await createCoupon(m, TWENTY_FOR_THREE);
    const { json } = await link(m, { amount: 2_990_000, interval: { unit: 'week', count: 1 }, coupon: 'BIENVENIDA20' });
    const first = bogota('2027-03-01');
    await database.db.update(subscriptionPlans).set({ tokenExpiresAt: later(first, DAY_MS) }).where(eq(subscriptionPlans.id, json.subscriptionPlanId));
    const { processor } = countingSandbox(0);
    expect((await payWithCard(database.db, processor, { token: json.token, card: parseCard(cardForm(CARDS.approved))!, now: first })).status).toBe('APPROVED');
    for (let week = 1; week <= 4; week++) {
      const summary = await runRenewalSweep(database.db, processor, { now: later(first, week * 7 * DAY_MS + 60_000) });
      expect(summary, `week ${week}`).toMatchObject({ approved: 1 });
    }
    const charges = await chargesOf(json.subscriptionPlanId);
    expect(charges.map((t) => [t.kind, t.status, t.amount, t.discount])).toEqual([
      ['INITIAL', 'APPROVED', 2_392_000, 598_000],
      ['RENEWAL', 'APPROVED', 2_392_000, 598_000],
      ['RENEWAL', 'APPROVED', 2_392_000, 598_000],
      ['RENEWAL', 'APPROVED', 2_990_000, 0],
      ['RENEWAL', 'APPROVED', 2_990_000, 0],
    ]);
    expect((await planRow(json.subscriptionPlanId)).discountPeriodsUsed).toBe(3);
  });

  it('uses no discount period on a declined charge: the next approved one carries it', async () => {
    const m = await createTestMerchant(database.db);
    await createCoupon(m, { code: 'PRIMERO', amountOff: 100_000, duration: 'once' });
    const { json } = await link(m, { amount: 150_000, coupon: 'PRIMERO' });
    const { processor } = countingSandbox(0);
    await payWithCard(database.db, processor, { token: json.token, card: parseCard(cardForm(CARDS.declined))! });
    await payWithCard(database.db, processor, { token: json.token, card: parseCard(cardForm(CARDS.approved))! });
    const charges = await chargesOf(json.subscriptionPlanId);
    expect(charges.map((t) => [t.status, t.amount, t.discount])).toEqual([
      ['DECLINED', 50_000, 100_000],
      ['APPROVED', 50_000, 100_000],
    ]);
    expect((await planRow(json.subscriptionPlanId)).discountPeriodsUsed).toBe(1);
    // A plan without a coupon is charged its list price with no discount, as before.
    const plain = (await link(m, { amount: 150_000 })).json;
    await payWithCard(database.db, processor, { token: plain.token, card: parseCard(cardForm(CARDS.approved))! });
    expect((await database.db.select().from(transactions).where(and(eq(transactions.planId, plain.subscriptionPlanId))))[0]).toMatchObject({ amount: 150_000, discount: 0 });
  });
});
