import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { type PlanStatus, subscriptionPlans, transactions } from '../schema';

// What the portal's Activity pages read. Every query names the merchant in its `where`, so a
// page cannot show another merchant's rows by forgetting a check.

export interface PlanFilter {
  status?: PlanStatus;
  externalReference?: string;
  /** Keyset pagination: plans older than this id (ids sort by creation time). */
  before?: string;
}

/** A page of the merchant's plans, newest first, and whether older ones remain. */
export async function listPlans(db: Db, merchantId: string, filter: PlanFilter, pageSize: number) {
  const conditions: SQL[] = [eq(subscriptionPlans.merchantId, merchantId)];
  if (filter.status) conditions.push(eq(subscriptionPlans.status, filter.status));
  if (filter.externalReference) conditions.push(eq(subscriptionPlans.externalReference, filter.externalReference));
  if (filter.before) conditions.push(lt(subscriptionPlans.id, filter.before));
  const rows = await db
    .select({
      id: subscriptionPlans.id,
      externalReference: subscriptionPlans.externalReference,
      description: subscriptionPlans.description,
      amount: subscriptionPlans.amount,
      modality: subscriptionPlans.modality,
      status: subscriptionPlans.status,
      customerEmail: subscriptionPlans.customerEmail,
      createdAt: subscriptionPlans.createdAt,
    })
    .from(subscriptionPlans)
    .where(and(...conditions))
    .orderBy(desc(subscriptionPlans.id))
    .limit(pageSize + 1);
  return { plans: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

export async function listPlanTransactions(db: Db, { merchantId, planId }: { merchantId: string; planId: string }) {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.planId, planId), eq(transactions.merchantId, merchantId)))
    .orderBy(desc(transactions.id));
}
