import { and, desc, eq, gte, isNull, lt, min, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import { renewalLinks, subscriptionPlans, testClocks } from '../schema';

// Test clocks per merchant (docs/billing.md#test-clocks): the row, its advance's lease, and which
// merchant's plans a sweep may touch.

export type TestClockRow = typeof testClocks.$inferSelect;

/**
 * Which merchants' rows a sweep takes (the `merchantId?` parameter of every sweep query): one
 * merchant's, for its test clock; otherwise every merchant without a test clock, whose plans
 * live on their own clock and are moved only by it.
 */
export function clockScope(merchantColumn: PgColumn, merchantId?: string): SQL {
  if (merchantId !== undefined) return eq(merchantColumn, merchantId);
  return sql`not exists (select 1 from ${testClocks} where ${testClocks.merchantId} = ${merchantColumn})`;
}

export async function getTestClock(db: Db, merchantId: string): Promise<TestClockRow | undefined> {
  const [row] = await db.select().from(testClocks).where(eq(testClocks.merchantId, merchantId)).limit(1);
  return row;
}

/** The merchant's clock time, or undefined when it has none (real time). */
export async function testClockTime(db: Db, merchantId: string): Promise<Date | undefined> {
  const [row] = await db.select({ frozenAt: testClocks.frozenAt }).from(testClocks).where(eq(testClocks.merchantId, merchantId)).limit(1);
  return row?.frozenAt;
}

/**
 * Takes the advance of this merchant's clock until `leaseUntil`: the row (made at `startAt` when
 * the merchant had none), or undefined while another advance holds an unexpired lease. The
 * conditional upsert decides a race in the database.
 */
export async function claimTestClock(
  db: Db,
  { merchantId, startAt, realNow, leaseUntil }: { merchantId: string; startAt: Date; realNow: Date; leaseUntil: Date },
): Promise<TestClockRow | undefined> {
  const [row] = await db
    .insert(testClocks)
    .values({ merchantId, frozenAt: startAt, advancingUntil: leaseUntil })
    .onConflictDoUpdate({
      target: testClocks.merchantId,
      set: { advancingUntil: leaseUntil, updatedAt: sql`now()` },
      where: or(isNull(testClocks.advancingUntil), lt(testClocks.advancingUntil, realNow)),
    })
    .returning();
  return row;
}

/** Moves the clock to `at` while its advance runs (renewing the lease); later payments read it. */
export async function moveTestClock(db: Db, merchantId: string, { at, leaseUntil }: { at: Date; leaseUntil: Date }): Promise<void> {
  await db.update(testClocks).set({ frozenAt: at, advancingUntil: leaseUntil, updatedAt: sql`now()` }).where(eq(testClocks.merchantId, merchantId));
}

/** Ends an advance: the lease given back, and what it did when it ran (null when it was refused before moving). */
export async function releaseTestClock(db: Db, merchantId: string, lastAdvance?: unknown): Promise<TestClockRow | undefined> {
  const [row] = await db
    .update(testClocks)
    .set({ advancingUntil: null, ...(lastAdvance === undefined ? {} : { lastAdvance }), updatedAt: sql`now()` })
    .where(eq(testClocks.merchantId, merchantId))
    .returning();
  return row;
}

/** Deletes the clock unless an advance holds it: 'deleted', 'none', or 'advancing'. */
export async function deleteTestClock(db: Db, merchantId: string, realNow: Date): Promise<'deleted' | 'none' | 'advancing'> {
  const rows = await db
    .delete(testClocks)
    .where(and(eq(testClocks.merchantId, merchantId), or(isNull(testClocks.advancingUntil), lt(testClocks.advancingUntil, realNow))))
    .returning({ merchantId: testClocks.merchantId });
  if (rows.length) return 'deleted';
  return (await getTestClock(db, merchantId)) ? 'advancing' : 'none';
}

/**
 * The earliest time something of this merchant's falls due after `after` (at any time when
 * null): a renewal or retry, a trial's end or its notice, a renewal link's next step.
 * Undefined when nothing is. (A plan collected by link, awaiting its link, is timed by
 * lib/billing/test-clock.ts from findPlansAwaitingRenewalLink.)
 */
export async function nextDueOfMerchant(db: Db, merchantId: string, after: Date | null): Promise<Date | undefined> {
  const from = (column: PgColumn) => (after === null ? sql`${column} is not null` : sql`${column} > ${after.toISOString()}::timestamptz`);
  const [charges] = await db
    .select({ at: min(subscriptionPlans.nextChargeDate) })
    .from(subscriptionPlans)
    .where(
      and(
        eq(subscriptionPlans.merchantId, merchantId),
        sql`${subscriptionPlans.status} in ('ACTIVE', 'TRIALING')`,
        eq(subscriptionPlans.renewalCollection, 'AUTOMATIC'),
        from(subscriptionPlans.nextChargeDate),
      ),
    );
  const [notices] = await db
    .select({ at: min(subscriptionPlans.trialNoticeAt) })
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.merchantId, merchantId), eq(subscriptionPlans.status, 'TRIALING'), from(subscriptionPlans.trialNoticeAt)));
  const [steps] = await db
    .select({ at: min(renewalLinks.nextStepAt) })
    .from(renewalLinks)
    .where(and(eq(renewalLinks.merchantId, merchantId), eq(renewalLinks.status, 'OPEN'), from(renewalLinks.nextStepAt)));
  const times = [charges?.at, notices?.at, steps?.at].filter((t) => t !== null && t !== undefined).map((t) => new Date(t as Date | string).getTime());
  return times.length ? new Date(Math.min(...times)) : undefined;
}

/** This merchant's plans changed since `since` (the database's time of the advance's claim), newest change first. */
export async function plansChangedSince(db: Db, merchantId: string, since: Date, limit = 100) {
  return db
    .select({
      id: subscriptionPlans.id,
      externalReference: subscriptionPlans.externalReference,
      status: subscriptionPlans.status,
      nextChargeDate: subscriptionPlans.nextChargeDate,
    })
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.merchantId, merchantId), gte(subscriptionPlans.updatedAt, since)))
    .orderBy(desc(subscriptionPlans.updatedAt))
    .limit(limit);
}
