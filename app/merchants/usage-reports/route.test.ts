import { inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { auditLog, usageReports } from '@/db/schema';
import { getRateLimiter } from '@/lib/rate-limit';
import { pinClockInMinute } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, type TestMerchant } from '@/test/merchants';
import { type MeteredPlan, meteredPlan, paidMeteredPlan } from '@/test/metered';
import { postLink, postToPlan } from '@/test/plans';
import { POST as cancel } from '../subscription-plans/[id]/cancel/route';
import { POST } from './route';

// POST /merchants/usage-reports (docs/billing.md#many-reports-in-one-request): many plans' reports
// recorded whole or not at all, each counted once by plan and key, raced by ten clients (for real
// on PostgreSQL in CI), each report drawn from the api_key's rate limit.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const reportsOf = (...planIds: string[]) => database.db.select().from(usageReports).where(inArray(usageReports.planId, planIds));
const batch = (merchant: TestMerchant, reports: unknown) => call(POST, { path: '/merchants/usage-reports', headers: merchant.headers, body: { reports } });
const of = (m: MeteredPlan, quantity: number, idempotencyKey: string, more: Record<string, unknown> = {}) => ({ subscriptionPlanId: m.id, quantity, idempotencyKey, ...more });

/** Two ACTIVE metered plans of one merchant. */
async function twoPlans() {
  const a = await paidMeteredPlan(database.db);
  const b = await paidMeteredPlan(database.db, { externalReference: 'metered-b' }, a.merchant);
  return { merchant: a.merchant, a, b };
}

describe('POST /merchants/usage-reports', () => {
  it('records the reports of many plans (201) in the order sent, and answers the same batch again with them (200)', async () => {
    const { merchant, a, b } = await twoPlans();
    const sent = [of(a, 30, 'k-1', { timestamp: '2026-11-28T10:00:00-05:00' }), of(b, 4, 'k-1'), of(a, 2, 'k-2')];
    const first = await batch(merchant, sent);
    expect(first.status).toBe(201);
    expect(first.json.data).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^usg_/), subscriptionPlanId: a.id, quantity: 30, idempotencyKey: 'k-1', timestamp: '2026-11-28T15:00:00.000Z' }),
      expect.objectContaining({ subscriptionPlanId: b.id, quantity: 4, idempotencyKey: 'k-1' }),
      expect.objectContaining({ subscriptionPlanId: a.id, quantity: 2, idempotencyKey: 'k-2' }),
    ]);
    const again = await batch(merchant, sent);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    // One new key beside two known ones: 201, the known ones as first recorded.
    const mixed = await batch(merchant, [sent[0], of(b, 9, 'k-3')]);
    expect(mixed.status).toBe(201);
    expect(mixed.json.data[0]).toEqual(first.json.data[0]);
    expect((await reportsOf(a.id, b.id)).map((r) => r.quantity).sort((x, y) => x - y)).toEqual([2, 4, 9, 30]);
  });

  it('counts a key repeated inside the batch once', async () => {
    const { merchant, a } = await twoPlans();
    const res = await batch(merchant, [of(a, 5, 'twice'), of(a, 5, 'twice')]);
    expect(res.status).toBe(201);
    expect(res.json.data[0]).toEqual(res.json.data[1]);
    expect(await reportsOf(a.id)).toHaveLength(1);
  });

  it('writes one audit entry for the batch, with the API key as its actor', async () => {
    const { merchant, a } = await twoPlans();
    expect((await batch(merchant, [of(a, 1, 'audited-1'), of(a, 2, 'audited-2')])).status).toBe(201);
    const entries = (await database.db.select().from(auditLog).where(inArray(auditLog.merchantId, [merchant.merchantId]))).filter((e) => e.action === 'api.reportUsageBatch');
    expect(entries).toEqual([expect.objectContaining({ actorType: 'api_key', target: 'POST /merchants/usage-reports' })]);
  });

  it('counts every key once when 10 clients send overlapping batches at once, in different orders', async () => {
    const { merchant, a, b } = await twoPlans();
    const reports = Array.from({ length: 40 }, (_, i) => of(i % 2 ? a : b, (i % 7) + 1, `raced-${i}`));
    // Half in one order, half in the other; inserted in one order whatever was sent, none waits on another in a cycle.
    const sentBy = (client: number) => (client % 2 ? reports.toReversed() : reports).slice(0, 30 + client);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, client) => batch(merchant, sentBy(client))));
    expect(replies.map((r) => r.status).every((s) => s === 200 || s === 201)).toBe(true);
    const rows = await reportsOf(a.id, b.id);
    const sentKeys = new Set(Array.from({ length: 10 }, (_, client) => sentBy(client)).flat().map((r) => `${r.subscriptionPlanId}/${r.idempotencyKey}`));
    expect(rows).toHaveLength(sentKeys.size);
    expect(new Set(rows.map((r) => `${r.planId}/${r.idempotencyKey}`))).toEqual(sentKeys);
    // Every reply names, for a key, the one row recorded with it.
    const byKey = new Map(rows.map((r) => [`${r.planId}/${r.idempotencyKey}`, r.id]));
    for (const reply of replies) for (const v of reply.json.data) expect(v.id).toBe(byKey.get(`${v.subscriptionPlanId}/${v.idempotencyKey}`));
  });
});

describe('refused whole, counting nothing', () => {
  it.each([
    [{ reports: [] }, 'reports'],
    [{}, 'reports'],
    [{ reports: 'k' }, 'reports'],
    [{ reports: [{ quantity: 1, idempotencyKey: 'k' }] }, 'reports.0.subscriptionPlanId'],
    [{ reports: [{ subscriptionPlanId: 'pln_1', quantity: 1, idempotencyKey: 'k' }] }, 'reports.0.subscriptionPlanId'],
  ])('%j → 400 naming %s', async (body, path) => {
    const merchant = await createTestMerchant(database.db);
    const res = await call(POST, { path: '/merchants/usage-reports', headers: merchant.headers, body });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path })]);
  });

  it.each([
    ['quantity 0', { quantity: 0 }, 'reports.1.quantity'],
    ['a fraction', { quantity: 1.5 }, 'reports.1.quantity'],
    ['no key', { idempotencyKey: undefined }, 'reports.1.idempotencyKey'],
    ['a bad timestamp', { timestamp: 'yesterday' }, 'reports.1.timestamp'],
  ])('a report with %s → 400 naming it; the good one before it is not recorded', async (_, change, path) => {
    const { merchant, a } = await twoPlans();
    const res = await batch(merchant, [of(a, 1, 'good'), { ...of(a, 2, 'bad'), ...change }]);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path })]);
    expect(await reportsOf(a.id)).toEqual([]);
  });

  it('refuses 101 reports, and a key repeated inside the batch with another quantity', async () => {
    const { merchant, a } = await twoPlans();
    const tooMany = await batch(merchant, Array.from({ length: 101 }, (_, i) => of(a, 1, `k-${i}`)));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.details).toEqual([expect.objectContaining({ path: 'reports' })]);
    const repeated = await batch(merchant, [of(a, 1, 'same'), of(a, 2, 'other'), of(a, 3, 'same')]);
    expect(repeated.status).toBe(400);
    expect(repeated.json.error.message).toContain('reports.2.idempotencyKey');
    expect(await reportsOf(a.id)).toEqual([]);
  });

  it('is a 404, 403, 400 or 409 naming the first report refused, and records none of the batch', async () => {
    const { merchant, a, b } = await twoPlans();
    const theirs = await paidMeteredPlan(database.db);
    const pending = await meteredPlan(database.db, { externalReference: 'metered-pending' }, merchant);
    const flat = await postLink(merchant, { externalReference: 'flat' });
    await postToPlan(cancel, { subscriptionPlanId: b.id, merchant });
    const cases: [MeteredPlan | { id: string }, number, string][] = [
      [{ id: 'sub_000000000000000000000000' }, 404, 'no subscription plan'],
      [theirs, 403, 'another account'],
      [{ id: flat.json.subscriptionPlanId }, 400, 'not metered'],
      [pending, 409, 'PENDING_ACTIVATION'],
      [b, 409, 'CANCELLED'],
    ];
    for (const [plan, status, words] of cases) {
      const res = await batch(merchant, [of(a, 1, 'good'), { subscriptionPlanId: plan.id, quantity: 1, idempotencyKey: 'k' }]);
      expect({ status: res.status, message: res.json.error.message }).toEqual({ status, message: expect.stringContaining('reports.1.subscriptionPlanId') });
      expect(res.json.error.message).toContain(words);
    }
    expect(await reportsOf(a.id, b.id, theirs.id, pending.id)).toEqual([]);
  });

  it('is a 409 for a key recorded before with another quantity, and rolls back the new reports beside it', async () => {
    const { merchant, a } = await twoPlans();
    expect((await batch(merchant, [of(a, 5, 'known')])).status).toBe(201);
    const res = await batch(merchant, [of(a, 1, 'new'), of(a, 6, 'known')]);
    expect(res.status).toBe(409);
    expect(res.json.error.message).toContain('reports.1');
    expect((await reportsOf(a.id)).map((r) => r.idempotencyKey)).toEqual(['known']);
  });

  it("draws each report from the api_key's 10,000 a minute: a batch past them is a 429 that records nothing", async () => {
    const { merchant, a } = await twoPlans();
    pinClockInMinute(30_000);
    // The minute nearly spent: 9,940 drawn, leaving 60.
    expect((await getRateLimiter().limit('usage', merchant.apiKey, 9_940)).success).toBe(true);
    const fits = await batch(merchant, Array.from({ length: 50 }, (_, i) => of(a, 1, `fits-${i}`)));
    expect(fits.status).toBe(201);
    expect(fits.headers.get('ratelimit-remaining')).toBe('10');
    const refused = await batch(merchant, Array.from({ length: 20 }, (_, i) => of(a, 1, `over-${i}`)));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await reportsOf(a.id)).toHaveLength(50);
  });
});
