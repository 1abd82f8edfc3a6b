import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedPlans } from '@/bench/seed-plans';
import type { Database } from '@/db/client';
import { claimDuePlans } from '@/db/queries/plans';
import { subscriptionPlans, transactions } from '@/db/schema';
import { type PaymentProcessor, ProcessorRateLimited } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { useTestDatabase } from '@/test/database';
import { holdWebhookHandOffs, restoreWebhookQueue } from '@/test/webhook-queue';
import { runRenewalSweep } from './sweep';

// The renewal day's sweep (docs/billing.md#renewals): charges in flight bounded overall and per
// merchant, a merchant refused for rate slowed alone and never declined, due plans claimed in
// batches that other sweeps skip while their lease lasts.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const NOW = new Date('2027-09-01T15:00:00.000Z');
let round = 0;
/** Each test at its own day, and only its own plans due then. */
let now = NOW;
beforeEach(async () => {
  round++;
  now = new Date(NOW.getTime() + round * 40 * 86_400_000);
  await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(inArray(subscriptionPlans.status, ['ACTIVE', 'TRIALING']));
});

/** `due` plans due at `now` for each of `merchants` new merchants: their ids. */
async function merchantsWithDuePlans(merchants: number, due: number) {
  const ids: string[] = [];
  for (let m = 0; m < merchants; m++) {
    const { merchantId } = await seedPlans(database.db, { count: due, due, dueAt: now, prefix: `s${round}m${m}` });
    ids.push(merchantId);
  }
  return ids;
}

/**
 * The sandbox, each charge taking `ms`, counting what is in flight overall and per merchant. With
 * `holdUntil`, the first charges also wait until that many were in flight at once (for at most
 * 10 s), so a loaded machine whose database lags behind the processor still shows the limit.
 */
function slowSandbox(ms: number, refuse: (merchantId: string) => number | null = () => null, holdUntil = 0) {
  const sandbox = createSandboxProcessor({ pendingMs: 0 });
  const seen = { inFlight: 0, max: 0, perMerchant: new Map<string, number>(), maxPerMerchant: new Map<string, number>(), refused: new Map<string, number>(), approvedAt: new Map<string, number[]>() };
  const started = Date.now();
  const source = async (merchantId: string): Promise<PaymentProcessor> => ({
    ...sandbox,
    charge: async (request) => {
      seen.inFlight++;
      seen.max = Math.max(seen.max, seen.inFlight);
      const mine = (seen.perMerchant.get(merchantId) ?? 0) + 1;
      seen.perMerchant.set(merchantId, mine);
      seen.maxPerMerchant.set(merchantId, Math.max(seen.maxPerMerchant.get(merchantId) ?? 0, mine));
      try {
        await new Promise((resolve) => setTimeout(resolve, ms));
        const deadline = Date.now() + 10_000;
        while (seen.max < holdUntil && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        const retryAfter = refuse(merchantId);
        if (retryAfter !== null) {
          seen.refused.set(merchantId, (seen.refused.get(merchantId) ?? 0) + 1);
          throw new ProcessorRateLimited(retryAfter);
        }
        const result = await sandbox.charge(request);
        seen.approvedAt.set(merchantId, [...(seen.approvedAt.get(merchantId) ?? []), Date.now() - started]);
        return result;
      } finally {
        seen.inFlight--;
        seen.perMerchant.set(merchantId, seen.perMerchant.get(merchantId)! - 1);
      }
    },
  });
  return { source, seen };
}

const renewals = (merchantIds: string[]) =>
  database.db
    .select({ merchantId: transactions.merchantId, status: transactions.status, n: sql<number>`count(*)::int` })
    .from(transactions)
    .where(and(inArray(transactions.merchantId, merchantIds), eq(transactions.kind, 'RENEWAL')))
    .groupBy(transactions.merchantId, transactions.status);

describe('the renewal sweep at scale', { timeout: 120_000 }, () => {
  beforeEach(() => {
    holdWebhookHandOffs();
  });
  afterEach(restoreWebhookQueue);

  it('charges every due plan once, with at most `concurrency` charges in flight and `merchantConcurrency` of one merchant', async () => {
    const merchants = await merchantsWithDuePlans(3, 16);
    // Slow enough that the limits, not the database, decide what is in flight.
    const { source, seen } = slowSandbox(150, undefined, 5);
    const summary = await runRenewalSweep(database.db, source, { now, concurrency: 5, merchantConcurrency: 2 });
    expect(summary).toMatchObject({ due: 48, approved: 48, declined: 0, error: 0, pending: 0, skipped: 0 });
    expect(seen.max).toBe(5);
    expect(Math.max(...seen.maxPerMerchant.values())).toBe(2);
    expect((await renewals(merchants)).map((r) => [r.status, r.n])).toEqual([['APPROVED', 16], ['APPROVED', 16], ['APPROVED', 16]]);
    // Every claim was given back when the sweep ended.
    const claimed = await database.db.select({ id: subscriptionPlans.id }).from(subscriptionPlans).where(sql`sweep_claim is not null`);
    expect(claimed).toEqual([]);
  });

  it('slows only the merchant whose processor answers 429, never counts it as a decline, and charges its plans after the backoff', async () => {
    const [limited, ...others] = await merchantsWithDuePlans(3, 12);
    // The limited merchant's processor answers 429 (wait 100 ms) until the others have had 16 charges
    // approved: if the sweep waited on it, the others would never get there.
    const { source, seen } = slowSandbox(30, (merchantId) => {
      if (merchantId !== limited) return null;
      const othersApproved = others.reduce((n, m) => n + (seen.approvedAt.get(m)?.length ?? 0), 0);
      return othersApproved < 16 ? 100 : null;
    });
    const summary = await runRenewalSweep(database.db, source, { now, concurrency: 6, merchantConcurrency: 2, firstBackoffMs: 100 });
    expect(summary).toMatchObject({ due: 36, approved: 36, declined: 0, error: 0, pending: 0 });
    // Refused, and each refusal waited for, longer each time: not once per plan, nor in a tight loop.
    expect(seen.refused.get(limited!)).toBeGreaterThanOrEqual(1);
    expect(seen.refused.get(limited!)).toBeLessThanOrEqual(20);
    // Its renewals were all charged, after the others had gone on.
    expect(seen.approvedAt.get(limited!)).toHaveLength(12);
    // A refused call left no transaction and no failure on the plan.
    const rows = await renewals([limited!, ...others]);
    expect(rows.every((r) => r.status === 'APPROVED')).toBe(true);
    expect(rows.reduce((n, r) => n + r.n, 0)).toBe(36);
    const failed = await database.db
      .select({ id: subscriptionPlans.id })
      .from(subscriptionPlans)
      .where(and(eq(subscriptionPlans.merchantId, limited!), sql`renewal_failures > 0`));
    expect(failed).toEqual([]);
  });

  it('leaves a merchant refused for too long to the next sweep, its plans given back and not failed', async () => {
    const [stuck, fine] = await merchantsWithDuePlans(2, 10);
    const { source } = slowSandbox(2, (merchantId) => (merchantId === stuck ? 0 : null));
    const first = await runRenewalSweep(database.db, source, { now, concurrency: 4, merchantConcurrency: 2, firstBackoffMs: 10, giveUpAfterMs: 100 });
    expect(first).toMatchObject({ due: 10, approved: 10, declined: 0, error: 0 });
    expect(await renewals([stuck!])).toEqual([]);
    // The next sweep, the limit lifted, charges them.
    const next = await runRenewalSweep(database.db, slowSandbox(2).source, { now: new Date(now.getTime() + 60_000) });
    expect(next).toMatchObject({ due: 10, approved: 10 });
    expect((await renewals([stuck!, fine!])).map((r) => r.n)).toEqual([10, 10]);
  });

  it('skips plans another sweep has claimed while its lease lasts, and charges them once it ran out (a dead instance)', async () => {
    const [merchant] = await merchantsWithDuePlans(1, 12);
    // A sweep that claimed 5 plans and died.
    const taken = await claimDuePlans(database.db, { now, limit: 5, claim: 'swp_dead', leaseMs: 60_000 });
    expect(taken).toHaveLength(5);
    const { source } = slowSandbox(1);
    expect(await runRenewalSweep(database.db, source, { now })).toMatchObject({ due: 7, approved: 7 });
    expect(await runRenewalSweep(database.db, source, { now })).toMatchObject({ due: 0 });
    // The lease runs out (the database's clock moved on a minute).
    await database.db.execute(sql`update subscription_plans set sweep_lease_until = now() - interval '1 second' where sweep_claim = 'swp_dead'`);
    expect(await runRenewalSweep(database.db, source, { now })).toMatchObject({ due: 5, approved: 5 });
    expect((await renewals([merchant!])).map((r) => [r.status, r.n])).toEqual([['APPROVED', 12]]);
  });

  it('claims in batches that other sweeps skip: two sweeps at once share the plans, each charged once', async () => {
    const merchants = await merchantsWithDuePlans(2, 30);
    const { source, seen } = slowSandbox(100);
    const [a, b] = await Promise.all([
      runRenewalSweep(database.db, source, { now, concurrency: 4, merchantConcurrency: 2 }),
      runRenewalSweep(database.db, source, { now, concurrency: 4, merchantConcurrency: 2 }),
    ]);
    expect(a.approved + b.approved).toBe(60);
    // Neither tried a plan the other held.
    expect(a.skipped + b.skipped).toBe(0);
    expect(a.approved).toBeGreaterThan(0);
    expect(b.approved).toBeGreaterThan(0);
    expect(seen.max).toBeLessThanOrEqual(8);
    expect((await renewals(merchants)).map((r) => r.n)).toEqual([30, 30]);
  });
});
