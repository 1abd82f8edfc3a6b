// Metered usage reports (docs/billing.md#metered-usage): recorded once per plan and key, and
// taken by the renewal of the period they fall in.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { subscriptionPlans, usageReports } from '../schema';

export type UsageReportRow = typeof usageReports.$inferSelect;

/**
 * Records a report, or finds the one already recorded with its key: `created` says which. The
 * unique index decides between concurrent requests with the same key.
 */
export async function insertUsageReport(db: Db, report: Omit<typeof usageReports.$inferInsert, 'periodDue'>): Promise<{ row: UsageReportRow; created: boolean }> {
  const [inserted] = await db.insert(usageReports).values(report).onConflictDoNothing({ target: [usageReports.planId, usageReports.idempotencyKey] }).returning();
  if (inserted) return { row: inserted, created: true };
  const [existing] = await db
    .select()
    .from(usageReports)
    .where(and(eq(usageReports.planId, report.planId), eq(usageReports.idempotencyKey, report.idempotencyKey)))
    .limit(1);
  return { row: existing!, created: false };
}

/** What a batch checks of its plans, whoever's they are: the caller refuses another merchant's. */
export function usagePlansOf(db: Db, planIds: string[]) {
  return db
    .select({
      id: subscriptionPlans.id,
      merchantId: subscriptionPlans.merchantId,
      modality: subscriptionPlans.modality,
      status: subscriptionPlans.status,
      usageUnitAmount: subscriptionPlans.usageUnitAmount,
    })
    .from(subscriptionPlans)
    .where(inArray(subscriptionPlans.id, planIds));
}

/**
 * Records the reports whose keys are new and answers them; the caller finds the others. Inserted
 * in (plan, key) order, so two batches sharing keys wait on each other in the same order and never
 * deadlock.
 */
export function insertUsageReports(db: Db, reports: Omit<typeof usageReports.$inferInsert, 'periodDue'>[]): Promise<UsageReportRow[]> {
  const ordered = reports.toSorted((a, b) => (a.planId === b.planId ? (a.idempotencyKey < b.idempotencyKey ? -1 : 1) : a.planId < b.planId ? -1 : 1));
  return db.insert(usageReports).values(ordered).onConflictDoNothing({ target: [usageReports.planId, usageReports.idempotencyKey] }).returning();
}

/** The reports recorded before with these (plan, key) pairs. */
export function findUsageReports(db: Db, keys: { planId: string; idempotencyKey: string }[]): Promise<UsageReportRow[]> {
  return db
    .select()
    .from(usageReports)
    .where(sql`(${usageReports.planId}, ${usageReports.idempotencyKey}) in (${sql.join(
      keys.map((k) => sql`(${k.planId}, ${k.idempotencyKey})`),
      sql`, `,
    )})`);
}

/** Under the plan's lock: the reports no renewal took yet join the period due at `due`; answers that period's units. */
export async function closeUsagePeriod(db: Db, planId: string, due: Date): Promise<number> {
  await db.update(usageReports).set({ periodDue: due }).where(and(eq(usageReports.planId, planId), isNull(usageReports.periodDue)));
  const [row] = await db
    .select({ units: sql<string>`coalesce(sum(${usageReports.quantity}), 0)` })
    .from(usageReports)
    .where(and(eq(usageReports.planId, planId), eq(usageReports.periodDue, due)));
  return Number(row?.units ?? 0);
}

/** The units reported and not billed yet: the current period's. */
export async function openUsageUnits(db: Db, planId: string): Promise<number> {
  const [row] = await db
    .select({ units: sql<string>`coalesce(sum(${usageReports.quantity}), 0)` })
    .from(usageReports)
    .where(and(eq(usageReports.planId, planId), isNull(usageReports.periodDue)));
  return Number(row?.units ?? 0);
}
