import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/db/client';
import { getOpenRenewalLink } from '@/db/queries/renewal-links';
import { emails, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { GET as getStatus } from '@/app/merchants/plans/[subscriptionPlanId]/status/route';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { advanceMerchantTestClock } from '@/lib/billing/test-clock';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { payCheckout } from '@/lib/checkout/payments';
import { merchantNow } from '@/lib/clock';
import { resetEnvForTests } from '@/lib/env';
import { merchantProcessors } from '@/lib/processors';
import { parseCard } from '@/lib/processors/card';
import { CARDS, cardForm } from '@/test/checkout';
import { DAY_MS, later } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, type TestMerchant } from '@/test/merchants';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { DELETE, GET, POST } from './route';
import { restoreEnvAfterEach } from '@/test/env';

// Test clocks per merchant (docs/billing.md#test-clocks): an advance runs that merchant's plans
// only, each thing at the time it fell due; later payments are dated on the clock; bad input,
// a second advance at once and production are refused.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});
restoreEnvAfterEach();

const advance = (merchant: TestMerchant, advanceTo: unknown) => call(POST, { method: 'POST', headers: merchant.headers, body: { advanceTo } });
const clockOf = (merchant: TestMerchant) => call(GET, { headers: merchant.headers });
const txnsOf = (planId: string) => database.db.select().from(transactions).where(eq(transactions.planId, planId)).orderBy(asc(transactions.id));
const planOf = async (planId: string) => (await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, planId)))[0]!;
const card = (number: string) => ({ type: 'CARD' as const, card: parseCard(cardForm(number))! });

const paidPlan = async (merchant: TestMerchant, plan: Record<string, unknown> = {}, card: string = CARDS.approved) =>
  (await paidPlanOf(database.db, { merchant, plan, card, processor: merchantProcessors(database.db), lang: 'es' })).planId;

describe('POST /merchants/test-clock', () => {
  it("runs a trial's notice and end at their own times, for this merchant only; another merchant's due plan is not charged", async () => {
    const merchant = await createTestMerchant(database.db);
    const other = await createTestMerchant(database.db);
    const planId = await paidPlan(merchant, { trialDays: 7 });
    const otherPlanId = await paidPlan(other);
    // The other merchant's plan is due (its next charge an hour ago) and stays uncharged.
    await database.db.update(subscriptionPlans).set({ nextChargeDate: new Date(Date.now() - 3_600_000) }).where(eq(subscriptionPlans.id, otherPlanId));
    const trialEnd = (await planOf(planId)).trialEndsAt!;

    const res = await advance(merchant, later(trialEnd, 60_000).toISOString());
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'ready', frozenTime: later(trialEnd, 60_000).toISOString() });
    expect(res.json.lastAdvance).toMatchObject({ approved: 1, declined: 0, trialNotices: 1, steps: 3 });
    expect(res.json.lastAdvance.plans).toEqual([
      { subscriptionPlanId: planId, externalReference: expect.any(String), status: 'ACTIVE', nextChargeDate: (await planOf(planId)).nextChargeDate!.toISOString() },
    ]);
    // The trial's end was charged at the end, not when the clock stopped; its event and e-mails dated likewise.
    const [charge] = await txnsOf(planId);
    expect(charge).toMatchObject({ status: 'APPROVED', chargeDate: trialEnd });
    const events = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId));
    expect(events.map((e) => e.createdAt.getTime())).toContain(trialEnd.getTime());
    const mails = await database.db.select().from(emails).where(eq(emails.planId, planId)).orderBy(asc(emails.createdAt));
    expect(mails.map((m) => [m.kind, m.createdAt.getTime()])).toEqual(
      expect.arrayContaining([
        ['trial_ending', later(trialEnd, -3 * DAY_MS).getTime()],
        ['receipt', trialEnd.getTime()],
      ]),
    );
    expect((await planOf(planId)).nextChargeDate!.getTime()).toBeGreaterThan(trialEnd.getTime());
    expect((await txnsOf(otherPlanId)).map((t) => t.kind)).toEqual(['INITIAL']);

    expect((await clockOf(merchant)).json).toEqual(res.json);
    expect((await clockOf(other)).json).toEqual({ status: 'real_time', frozenTime: null, lastAdvance: null });
  });

  it("leaves a clocked merchant's plans out of the real-time sweep, which still charges the others", async () => {
    const merchant = await createTestMerchant(database.db);
    const other = await createTestMerchant(database.db);
    const planId = await paidPlan(merchant);
    const otherPlanId = await paidPlan(other);
    expect((await advance(merchant, new Date(Date.now() + DAY_MS).toISOString())).status).toBe(200);
    const past = new Date(Date.now() - 60_000);
    for (const id of [planId, otherPlanId]) await database.db.update(subscriptionPlans).set({ nextChargeDate: past }).where(eq(subscriptionPlans.id, id));
    await runRenewalSweep(database.db, merchantProcessors(database.db), { now: new Date() });
    expect((await txnsOf(planId)).map((t) => t.kind)).toEqual(['INITIAL']);
    expect((await txnsOf(otherPlanId)).map((t) => t.kind)).toEqual(['INITIAL', 'RENEWAL']);
  });

  it('walks a declined renewal through its retries to the renewal link, whose payment on the page is dated on the clock and is the newest transaction', async () => {
    const merchant = await createTestMerchant(database.db);
    const planId = await paidPlan(merchant, {}, CARDS.renewalsDecline);
    const due = (await planOf(planId)).nextChargeDate!;
    // To the very millisecond of the last retry: the clock stops where the ladder issued the link.
    const last = later(due, 5 * DAY_MS);
    const res = await advance(merchant, last.toISOString());
    expect(res.status).toBe(200);
    expect(res.json.lastAdvance).toMatchObject({ approved: 0, declined: 4, cancelledPlanIds: [] });
    const renewals = (await txnsOf(planId)).filter((t) => t.kind === 'RENEWAL');
    // Due date, then 1, 3 and 5 days after it: each attempt when it fell due.
    expect(renewals.map((t) => (t.chargeDate.getTime() - due.getTime()) / DAY_MS)).toEqual([0, 1, 3, 5]);

    // The link is paid where the clock stands, after the retry made at that same time.
    const link = (await getOpenRenewalLink(database.db, planId))!;
    expect(link.createdAt).toEqual(last);
    await payCheckout(database.db, merchantProcessors(database.db), { token: link.token, payment: { instrument: card(CARDS.approved) }, lang: 'es' });
    const all = await txnsOf(planId);
    const paid = all.at(-1)!;
    expect(paid).toMatchObject({ status: 'APPROVED', renewalLinkId: link.id, chargeDate: last });
    const status = await call(getStatus, { headers: merchant.headers, params: { subscriptionPlanId: planId } });
    expect(status.json.lastTransaction.subscriptionTransactionId).toBe(paid.id);
  });

  it('dates a plan created while the clock is moved on it', async () => {
    const merchant = await createTestMerchant(database.db);
    const at = new Date(Date.now() + 30 * DAY_MS);
    await advance(merchant, at.toISOString());
    expect(await merchantNow(database.db, merchant.merchantId)).toEqual(at);
    const planId = await paidPlan(merchant);
    expect((await planOf(planId)).createdAt).toEqual(at);
    expect((await txnsOf(planId))[0]).toMatchObject({ kind: 'INITIAL', chargeDate: at });
    expect((await planOf(planId)).nextChargeDate!.getTime()).toBeGreaterThan(at.getTime() + 27 * DAY_MS);
  });

  it('refuses to go backwards, past 2 years or with a malformed time, naming advanceTo, and changes nothing', async () => {
    const merchant = await createTestMerchant(database.db);
    const at = new Date(Date.now() + DAY_MS);
    expect((await advance(merchant, at.toISOString())).status).toBe(200);
    const before = (await clockOf(merchant)).json;

    const backwards = await advance(merchant, new Date(at.getTime() - 1000).toISOString());
    expect(backwards.status).toBe(400);
    expect(backwards.json.error.message).toMatch(/^advanceTo .* is before your clock's time .*: a test clock moves only forward/);
    expect(backwards.json.error.details).toEqual([{ path: 'advanceTo', message: expect.stringContaining('moves only forward') }]);

    const far = new Date(Date.now() + 2 * 366 * DAY_MS);
    const tooFar = await advance(merchant, far.toISOString());
    expect(tooFar.status).toBe(400);
    expect(tooFar.json.error.message).toContain('is more than 2 years from now');

    for (const bad of ['mañana', '2027-13-01T00:00:00Z', 1796400000000, null]) {
      const refused = await advance(merchant, bad);
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toContain('advanceTo');
    }
    const none = await call(POST, { method: 'POST', headers: merchant.headers, body: {} });
    expect(none.status).toBe(400);
    expect(none.json.error.message).toContain('advanceTo');
    expect((await clockOf(merchant)).json).toEqual(before);

    // A merchant with no clock may not go before real time either.
    const fresh = await createTestMerchant(database.db);
    expect((await advance(fresh, new Date(Date.now() - DAY_MS).toISOString())).status).toBe(400);
    expect((await clockOf(fresh)).json.status).toBe('real_time');
  });

  it('runs two advances at once one after the other or refuses the second (409), never charging a plan twice', async () => {
    const merchant = await createTestMerchant(database.db);
    const planId = await paidPlan(merchant);
    const due = (await planOf(planId)).nextChargeDate!;
    const target = later(due, 60_000).toISOString();
    const [a, b] = await Promise.all([advance(merchant, target), advance(merchant, target)]);
    expect([a.status, b.status].sort()).toSatisfy((s: number[]) => s[0] === 200 && (s[1] === 200 || s[1] === 409));
    const refused = [a, b].find((r) => r.status === 409);
    if (refused) expect(refused.json.error.message).toContain('already advancing');
    expect((await txnsOf(planId)).filter((t) => t.kind === 'RENEWAL')).toHaveLength(1);
  });

  it('DELETE puts the merchant back on real time for new plans', async () => {
    const merchant = await createTestMerchant(database.db);
    await advance(merchant, new Date(Date.now() + 10 * DAY_MS).toISOString());
    const deleted = await call(DELETE, { method: 'DELETE', headers: merchant.headers });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ status: 'real_time', frozenTime: null, lastAdvance: null });
    const now = Date.now();
    expect(Math.abs((await merchantNow(database.db, merchant.merchantId)).getTime() - now)).toBeLessThan(5_000);
  });

  it('answers 404 in production, unless the deployment is a sandbox', async () => {
    // Each deployment takes its own kind of key (live in production, test on a sandbox).
    const sandboxMerchant = await createTestMerchant(database.db);
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('BETTER_AUTH_SECRET', 'test-better-auth-secret-0123456789abcdef');
    resetEnvForTests();
    const merchant = await createTestMerchant(database.db);
    expect(merchant.headers.authorization).toMatch(/^Bearer pk_live_/);
    for (const res of [await advance(merchant, new Date(Date.now() + DAY_MS).toISOString()), await clockOf(merchant), await call(DELETE, { method: 'DELETE', headers: merchant.headers })]) {
      expect(res.status).toBe(404);
      expect(res.json.error.message).toContain('sandbox deployments');
    }
    vi.stubEnv('SANDBOX_DEPLOYMENT', '1');
    resetEnvForTests();
    expect((await clockOf(sandboxMerchant)).status).toBe(200);
  });
});

describe('an advance whose renewal stays PENDING', () => {
  it('lists the charge once, though a later step of the advance resumes it', async () => {
    const merchant = await createTestMerchant(database.db);
    const planId = await paidPlan(merchant);
    const sandbox = createSandboxProcessor({ pendingMs: 0 });
    // As Wompi: the renewal is taken, and decided later by its event.
    const pending = { status: 'PENDING' as const, gatewayTransactionId: 'gw_pending_renewal' };
    const processor = { ...sandbox, charge: async () => pending, retrieve: async () => pending, findByReference: async () => pending };
    const due = (await planOf(planId)).nextChargeDate!;
    const view = await advanceMerchantTestClock(database.db, processor, merchant.merchantId, later(due, 60 * 60_000));
    const renewals = (await txnsOf(planId)).filter((t) => t.kind === 'RENEWAL');
    expect(renewals.map((t) => t.status)).toEqual(['PENDING']);
    expect(view.lastAdvance!.transactionIds).toEqual([renewals[0]!.id]);
  });
});
