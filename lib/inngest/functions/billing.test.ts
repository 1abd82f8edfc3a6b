import { InngestTestEngine } from '@inngest/test';
import { and, eq, lte } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { subscriptionPlans, transactions } from '@/db/schema';
import { renewalEventId } from '@/lib/billing/renewals';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { PATCH } from '@/app/admin/merchants/[id]/route';
import { env, resetEnvForTests } from '@/lib/env';
import { adminHeaders, call } from '@/test/http';
import { startWompiDouble, testWompiKeys } from '@/test/wompi-double';
import { chargeRenewalFunction } from './charge-renewal';
import { sweepRenewals } from './sweep-renewals';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

/** An ACTIVE plan whose next charge was due a minute ago (real time: the functions use the clock). */
async function duePlan() {
  const link = await createTestLink(database.db);
  await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  const due = new Date(Date.now() - 60_000);
  await database.db.update(subscriptionPlans).set({ nextChargeDate: due }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
  return { ...link, due };
}
const renewalsOf = (planId: string) =>
  database.db.select().from(transactions).where(and(eq(transactions.planId, planId), eq(transactions.kind, 'RENEWAL')));
// Nothing leaves the test: the events the sweep would send are captured by a mocked step.
const sentEvents = { id: 'send-renewal-events', handler: () => ({ ids: [] }) };

describe('sweep-renewals (cron)', () => {
  it('sends one event per due attempt, its id built from plan, period and attempt, and charges nothing itself', async () => {
    const link = await duePlan();
    const { result, ctx } = await new InngestTestEngine({ function: sweepRenewals, steps: [sentEvents] }).execute();
    const [, events] = ctx.step.sendEvent.mock.calls[0] as unknown as [string, { id: string; name: string; data: unknown }[]];
    const due = { planId: link.subscriptionPlanId, merchantId: link.merchant.merchantId, period: link.due.getTime(), attempt: 0 };
    expect(events).toContainEqual(expect.objectContaining({ name: 'servicepay/renewal.due', id: renewalEventId(due), data: due }));
    const dueNow = await database.db.select().from(subscriptionPlans).where(and(eq(subscriptionPlans.status, 'ACTIVE'), lte(subscriptionPlans.nextChargeDate, new Date())));
    expect(events).toHaveLength(dueNow.length);
    expect(result).toEqual({ due: dueNow.length, renewalLinks: { issued: 0, reminded: 0, cancelledPlanIds: [] } });
    expect(await renewalsOf(link.subscriptionPlanId)).toEqual([]);
  });

  it('sends no event when nothing is due', async () => {
    await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(eq(subscriptionPlans.status, 'ACTIVE'));
    const { result, ctx } = await new InngestTestEngine({ function: sweepRenewals, steps: [sentEvents] }).execute();
    expect(ctx.step.sendEvent).not.toHaveBeenCalled();
    expect(result).toMatchObject({ due: 0 });
  });
});

describe('charge-renewal', () => {
  const event = (data: { planId: string; period: number; attempt: number }) => ({ name: 'servicepay/renewal.due', data });

  it('charges the attempt once; the same event again charges nothing', async () => {
    const link = await duePlan();
    const data = { planId: link.subscriptionPlanId, period: link.due.getTime(), attempt: 0 };
    const first = await new InngestTestEngine({ function: chargeRenewalFunction, events: [event(data)] }).execute();
    expect(first.result).toMatchObject({ planId: link.subscriptionPlanId, result: 'APPROVED', planStatus: 'ACTIVE' });
    expect(first.ctx.step.run).toHaveBeenCalledWith('charge-renewal', expect.any(Function));
    const again = await new InngestTestEngine({ function: chargeRenewalFunction, events: [event(data)] }).execute();
    expect(again.result).toEqual({ planId: link.subscriptionPlanId, result: 'skipped' });
    expect((await renewalsOf(link.subscriptionPlanId)).map((t) => t.status)).toEqual(['APPROVED']);
  });

  it('keys its concurrency per plan (one attempt at a time) and per merchant (SWEEP_MERCHANT_CONCURRENCY across instances)', () => {
    expect(chargeRenewalFunction.opts.concurrency).toEqual([
      { key: 'event.data.planId', limit: 1 },
      { key: 'event.data.merchantId', limit: env().SWEEP_MERCHANT_CONCURRENCY },
    ]);
  });

  it('sleeps when the merchant\'s Wompi account answers 429, at least its Retry-After, then charges once; no decline is recorded', async () => {
    const double = await startWompiDouble({ settleMs: 0 });
    process.env.WOMPI_API_URL = double.url;
    resetEnvForTests();
    try {
      const link = await duePlan();
      const keys = testWompiKeys();
      double.addMerchant(keys);
      const patched = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: link.merchant.merchantId }, body: { processor: { type: 'wompi', ...keys } } });
      expect(patched.status).toBe(200);
      const source = double.addSources(keys.publicKey, 1);
      await database.db.update(subscriptionPlans).set({ paymentMethodToken: `wompi_source_CARD_${source}` }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
      double.rateLimit(keys.publicKey, 3_600_000, 30);
      // The limit lifts during the second sleep.
      const sleeps = [1, 2, 3].map((n) => ({ id: `rate-limited-${n}`, handler: () => (n === 2 ? double.rateLimit(keys.publicKey, 0) : undefined) }));
      const checks = [1, 2].map((n) => ({ id: `wait-for-processor-${n}`, handler: () => undefined }));
      const data = { planId: link.subscriptionPlanId, merchantId: link.merchant.merchantId, period: link.due.getTime(), attempt: 0 };
      const { result, ctx } = await new InngestTestEngine({ function: chargeRenewalFunction, events: [event(data)], steps: [...sleeps, ...checks] }).execute();
      expect(result).toMatchObject({ planId: link.subscriptionPlanId, result: 'APPROVED' });
      const slept = (ctx.step.sleep as unknown as { mock: { calls: [string, number][] } }).mock.calls.filter(([id]) => id.startsWith('rate-limited-'));
      expect(slept.map(([id]) => id)).toEqual(['rate-limited-1', 'rate-limited-2']);
      // Retry-After (30 s) is longer than the first backoffs: it is what is waited.
      expect(slept.map(([, ms]) => ms)).toEqual([30_000, 30_000]);
      expect(double.refusedForRate(keys.publicKey)).toBe(2);
      expect((await renewalsOf(link.subscriptionPlanId)).map((t) => t.status)).toEqual(['APPROVED']);
      expect((await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, link.subscriptionPlanId)))[0]).toMatchObject({ renewalFailures: 0 });
    } finally {
      delete process.env.WOMPI_API_URL;
      resetEnvForTests();
      await double.close();
    }
  });

  it('skips an attempt of a period that is not the plan\'s current one', async () => {
    const link = await duePlan();
    const stale = { planId: link.subscriptionPlanId, period: link.due.getTime() - 31 * 86_400_000, attempt: 0 };
    const { result } = await new InngestTestEngine({ function: chargeRenewalFunction, events: [event(stale)] }).execute();
    expect(result).toEqual({ planId: link.subscriptionPlanId, result: 'skipped' });
    expect(await renewalsOf(link.subscriptionPlanId)).toEqual([]);
  });
});
