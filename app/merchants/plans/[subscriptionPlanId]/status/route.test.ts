import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { subscriptionPlans, transactions } from '@/db/schema';
import { createId } from '@/lib/ids';
import { POST as createLink } from '@/app/merchants/subscription-link/route';
import { GET as getRecord } from '@/app/merchants/subscription-plans/[id]/route';
import { pinClockInMinute } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, linkBody, type TestMerchant } from '@/test/merchants';
import { GET } from './route';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

async function newPlan(m: TestMerchant, overrides: Parameters<typeof linkBody>[0] = {}) {
  const res = await call(createLink, { headers: m.headers, body: linkBody(overrides) });
  expect(res.status).toBe(200);
  return res.json.subscriptionPlanId as string;
}
const status = (m: { headers: Record<string, string> }, id: string) =>
  call(GET, { headers: m.headers, params: { subscriptionPlanId: id } });
const record = (m: { headers: Record<string, string> }, id: string) => call(getRecord, { headers: m.headers, params: { id } });

describe('GET /merchants/plans/{id}/status', () => {
  it('answers docs/api.md#plan-status at top level, without lastTransaction before any payment', async () => {
    const m = await createTestMerchant(database.db);
    const id = await newPlan(m, { plan: { externalReference: 'ord-77', description: 'Gimnasio', amount: 4_990_000 } });
    const [row] = await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
    const res = await status(m, id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      subscriptionPlanId: id,
      externalReference: 'ord-77',
      plan: {
        status: 'PENDING_ACTIVATION',
        amount: 4_990_000,
        currency: 'COP',
        description: 'Gimnasio',
        nextChargeDate: row!.createdAt.getTime(),
      },
    });
    expect(res.headers.get('ratelimit-limit')).toBe('120');
  });

  it('shows plan.interval for a plan charged other than monthly, and only then (docs/billing.md#intervals)', async () => {
    const m = await createTestMerchant(database.db);
    const weekly = await newPlan(m, { plan: { interval: { unit: 'week', count: 2 } } });
    const monthly = await newPlan(m, { plan: { interval: { unit: 'month', count: 1 } } });
    expect((await status(m, weekly)).json.plan.interval).toEqual({ unit: 'week', count: 2 });
    expect(Object.keys((await status(m, monthly)).json.plan).sort()).toEqual(['amount', 'currency', 'description', 'nextChargeDate', 'status']);
    expect((await record(m, weekly)).json.interval).toEqual({ unit: 'week', count: 2 });
    expect((await record(m, monthly)).json.interval).toBe('MONTHLY');
  });

  it('shows the most recent transaction', async () => {
    const m = await createTestMerchant(database.db);
    const id = await newPlan(m);
    const chargeDate = new Date('2026-11-21T15:04:05.123Z');
    const base = { planId: id, merchantId: m.merchantId, kind: 'INITIAL' as const, amount: 150000 };
    await database.db.insert(transactions).values([
      { ...base, id: createId('txn', chargeDate.getTime() - 1000), status: 'DECLINED', gatewayTransactionId: '1-2-3' },
      { ...base, id: createId('txn', chargeDate.getTime()), status: 'APPROVED', chargeDate, gatewayTransactionId: '48213-1763740800123-00917' },
    ]);
    const res = await status(m, id);
    expect(res.json.lastTransaction).toEqual({
      subscriptionTransactionId: expect.stringMatching(/^txn_/),
      status: 'APPROVED',
      amount: 150000,
      chargeDate: chargeDate.getTime(),
      gatewayTransactionId: '48213-1763740800123-00917',
    });
  });

  it('gives a null nextChargeDate when no charge is scheduled', async () => {
    const m = await createTestMerchant(database.db);
    const id = await newPlan(m);
    await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(eq(subscriptionPlans.id, id));
    expect((await status(m, id)).json.plan).toMatchObject({ status: 'CANCELLED', nextChargeDate: null });
  });

  it("answers 403 for another merchant's plan, reading nothing of it", async () => {
    const owner = await createTestMerchant(database.db);
    const other = await createTestMerchant(database.db);
    const id = await newPlan(owner);
    const res = await status(other, id);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('forbidden');
    expect(res.text).not.toContain(id.slice(4));
  });

  it.each([
    ['an unknown plan', 'sub_000000000000000000000000'],
    ['a transaction id', 'txn_000000000000000000000000'],
    ['too short', 'sub_123'],
    ['bad characters', 'sub_00000000000000000000000!'],
    ['SQL', "sub_' or '1'='1"],
    ['empty-ish', 'sub_'],
  ])('answers 404 for %s', async (_label, id) => {
    const m = await createTestMerchant(database.db);
    const res = await status(m, id);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
  });

  it('needs credentials', async () => {
    const m = await createTestMerchant(database.db);
    const id = await newPlan(m);
    expect((await status({ headers: {} }, id)).status).toBe(401);
  });

  it('refuses the 121st status call in a minute with 429; another merchant is unaffected', async () => {
    const m = await createTestMerchant(database.db);
    const other = await createTestMerchant(database.db);
    const id = await newPlan(m);
    const otherId = await newPlan(other);
    pinClockInMinute();
    for (let i = 0; i < 120; i++) expect((await status(m, id)).status).toBe(200);
    const refused = await status(m, id);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await status(other, otherId)).status).toBe(200);
  });
});

describe('GET /merchants/subscription-plans/{id}', () => {
  it('answers the docs/api.md#plan-status record', async () => {
    const m = await createTestMerchant(database.db);
    const id = await newPlan(m, {
      customer: { email: 'pedro@example.com', firstName: 'Pedro', lastName: 'Pérez', idType: 'CC', idNumber: '1020304050' },
      plan: { externalReference: 'ord-9', description: 'Plan anual', amount: 1_000_000, modality: 'SINGLE' },
    });
    const res = await record(m, id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id,
      merchantId: m.merchantId,
      userId: expect.stringMatching(/^cus_[0-9A-Za-z]{24}$/),
      externalReference: 'ord-9',
      description: 'Plan anual',
      amount: 1_000_000,
      currency: 'COP',
      modality: 'SINGLE',
      interval: null,
      status: 'PENDING_ACTIVATION',
      nextChargeDate: expect.any(Number),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      customer: { phone: '+573001234567', email: 'pedro@example.com', firstName: 'Pedro', lastName: 'Pérez', idType: 'CC', idNumber: '1020304050' },
    });
    expect(res.headers.get('ratelimit-limit')).toBe('60');
  });

  it('gives the same userId to two plans of one customer', async () => {
    const m = await createTestMerchant(database.db);
    const a = await record(m, await newPlan(m));
    const b = await record(m, await newPlan(m));
    expect(a.json.userId).toBe(b.json.userId);
  });

  it("answers 403 for another merchant's plan and 404 for ids that are not plan ids", async () => {
    const owner = await createTestMerchant(database.db);
    const other = await createTestMerchant(database.db);
    const id = await newPlan(owner);
    expect((await record(other, id)).status).toBe(403);
    expect((await record(other, 'evt_000000000000000000000000')).status).toBe(404);
    expect((await record(other, 'sub_000000000000000000000000')).status).toBe(404);
  });
});
