import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { usageReports } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { chargeLines } from '@/lib/receipts/lines';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, type TestMerchant } from '@/test/merchants';
import { meteredPlan, paidMeteredPlan, sandbox } from '@/test/metered';
import { planRow, planTransactions, postLink } from '@/test/plans';
import { POST as cancel } from '../cancel/route';
import { POST } from './route';

// Metered usage (docs/billing.md#metered-usage): reports idempotent by key, even raced; billed in
// arrears at each renewal with the fixed amount; late reports fall in the next period. CI runs it
// on PostgreSQL (DATABASE_URL), where the ten clients below race for real.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const reportsOf = (planId: string) => database.db.select().from(usageReports).where(eq(usageReports.planId, planId));
const metered = (plan: Record<string, unknown> = {}) => meteredPlan(database.db, plan);
const paid = (plan: Record<string, unknown> = {}) => paidMeteredPlan(database.db, plan);

const report = (m: { merchant: TestMerchant; id: string }, body: unknown, merchant = m.merchant) =>
  call(POST, { path: `/merchants/subscription-plans/${m.id}/usage`, headers: merchant.headers, params: { id: m.id }, body });

describe('POST /merchants/subscription-plans/{id}/usage', () => {
  it('records a report (201), answers the same key again with the first report (200), and refuses the key with another quantity (409)', async () => {
    const m = await paid();
    const first = await report(m, { quantity: 30, idempotencyKey: 'k-1', timestamp: '2026-11-28T10:00:00-05:00' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ id: expect.stringMatching(/^usg_/), subscriptionPlanId: m.id, quantity: 30, idempotencyKey: 'k-1', timestamp: '2026-11-28T15:00:00.000Z' });
    const again = await report(m, { quantity: 30, idempotencyKey: 'k-1' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    const other = await report(m, { quantity: 31, idempotencyKey: 'k-1' });
    expect(other.status).toBe(409);
    expect(await reportsOf(m.id)).toHaveLength(1);
  });

  it('counts a key sent by 10 clients at once exactly once', async () => {
    const m = await paid();
    const replies = await Promise.all(Array.from({ length: 10 }, () => report(m, { quantity: 7, idempotencyKey: 'raced' })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
    const rows = await reportsOf(m.id);
    expect(rows.map((r) => r.quantity)).toEqual([7]);
  });

  it('bills the period in arrears at its renewal with the fixed amount; a late report falls in the next period', async () => {
    const m = await paid();
    for (const [i, quantity] of [80, 50].entries()) expect((await report(m, { quantity, idempotencyKey: `p1-${i}` })).status).toBe(201);
    const due = (await planRow(database.db, m.id)).nextChargeDate!;
    await runRenewalSweep(database.db, sandbox, { now: new Date(due.getTime() + 1000) });
    const renewal = (await planTransactions(database.db, m.id)).find((t) => t.kind === 'RENEWAL')!;
    // 5 seats × $ 10.000, plus (130 − 100) units × $ 200.
    expect(renewal).toMatchObject({ status: 'APPROVED', amount: 5_000_000 + 600_000, usageUnits: 130, usageAmount: 600_000 });
    expect(chargeLines(renewal)).toEqual([
      { kind: 'fixed', quantity: 5, unitAmount: 1_000_000, amount: 5_000_000 },
      { kind: 'usage', quantity: 130, amount: 600_000 },
    ]);
    // Sent after the renewal: the next period's.
    await report(m, { quantity: 150, idempotencyKey: 'late', timestamp: new Date(due.getTime() - 60_000).toISOString() });
    const next = (await planRow(database.db, m.id)).nextChargeDate!;
    await runRenewalSweep(database.db, sandbox, { now: new Date(next.getTime() + 1000) });
    const second = (await planTransactions(database.db, m.id)).filter((t) => t.kind === 'RENEWAL')[1]!;
    expect(second).toMatchObject({ amount: 5_000_000 + 1_000_000, usageUnits: 150, usageAmount: 1_000_000 });
  });

  it('charges the fixed amount alone for a period without usage', async () => {
    const m = await paid();
    await runRenewalSweep(database.db, sandbox, { now: new Date((await planRow(database.db, m.id)).nextChargeDate!.getTime() + 1000) });
    expect((await planTransactions(database.db, m.id)).find((t) => t.kind === 'RENEWAL')).toMatchObject({ amount: 5_000_000, usageUnits: 0, usageAmount: 0 });
  });
});

describe('refused, counting nothing', () => {
  it.each([
    [{ idempotencyKey: 'k' }, 'quantity'],
    [{ quantity: 0, idempotencyKey: 'k' }, 'quantity'],
    [{ quantity: 1.5, idempotencyKey: 'k' }, 'quantity'],
    [{ quantity: '3', idempotencyKey: 'k' }, 'quantity'],
    [{ quantity: 3 }, 'idempotencyKey'],
    [{ quantity: 3, idempotencyKey: '' }, 'idempotencyKey'],
    [{ quantity: 3, idempotencyKey: 'k', timestamp: 'yesterday' }, 'timestamp'],
  ])('%j → 400 naming %s', async (body, path) => {
    const m = await paid();
    const res = await report(m, body);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path })]);
    expect(await reportsOf(m.id)).toEqual([]);
  });

  it('is a 400 for a SINGLE plan or one created without usage, a 409 for a cancelled or unpaid plan, a 403 for another merchant', async () => {
    const merchant = await createTestMerchant(database.db);
    const single = await postLink(merchant, { modality: 'SINGLE' });
    const singleRes = await report({ merchant, id: single.json.subscriptionPlanId }, { quantity: 1, idempotencyKey: 'k' });
    expect(singleRes.status).toBe(400);
    expect(singleRes.json.error.details).toEqual([expect.objectContaining({ path: 'id' })]);
    const flat = await postLink(merchant);
    expect((await report({ merchant, id: flat.json.subscriptionPlanId }, { quantity: 1, idempotencyKey: 'k' })).status).toBe(400);

    expect((await report(await metered(), { quantity: 1, idempotencyKey: 'k' })).status).toBe(409);
    const cancelled = await paid();
    await call(cancel, { method: 'POST', headers: cancelled.merchant.headers, params: { id: cancelled.id } });
    expect((await report(cancelled, { quantity: 1, idempotencyKey: 'k' })).status).toBe(409);

    const theirs = await paid();
    expect((await report(theirs, { quantity: 1, idempotencyKey: 'k' }, merchant)).status).toBe(403);
    expect([...(await reportsOf(cancelled.id)), ...(await reportsOf(theirs.id))]).toEqual([]);
  });

  it('refuses usage on a SINGLE link, 400 naming plan.usage, and is ignored by an older API version', async () => {
    const merchant = await createTestMerchant(database.db);
    const res = await postLink(merchant, { modality: 'SINGLE', usage: { unitAmount: 100 } });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path: 'plan.usage' })]);
    const old = await postLink(merchant, { usage: { unitAmount: 100 } }, { 'ServicePay-Version': '2026-11-26' });
    expect((await planRow(database.db, old.json.subscriptionPlanId)).usageUnitAmount).toBeNull();
  });
});
