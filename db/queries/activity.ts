import { and, desc, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { customers, type PlanStatus, subscriptionPlans, type TransactionStatus, transactions } from '../schema';

// What the portal's Activity and Transactions pages read. Every query names the merchant in its
// `where`, so a page cannot show another merchant's rows by forgetting a check.

interface ActivityFilter {
  /** Matched against a plan id (sub_…), a customer's e-mail (exact, any case) and an externalReference (exact), all at once. */
  search?: string;
  /** Keyset pagination: rows older than this id (ids sort by creation time). */
  before?: string;
}

export interface PlanFilter extends ActivityFilter {
  status?: PlanStatus;
}

export interface TransactionFilter extends ActivityFilter {
  status?: TransactionStatus;
}

/**
 * The plans a search names, in every field it can match: the externalReference (exact) always, as
 * a merchant's reference may hold anything (`pedido@tienda-…`, `sub_2026_renovacion`); also the
 * plan id when it looks like one, and the customer's e-mail (exact, any case) when it has an `@`.
 * A field the search cannot match is left out, so each branch stays an index lookup.
 */
function planSearch(merchantId: string, search: string): SQL {
  const branches: SQL[] = [eq(subscriptionPlans.externalReference, search)];
  if (/^sub_\w+$/.test(search)) branches.push(eq(subscriptionPlans.id, search));
  if (search.includes('@')) {
    // customers_merchant_email_key finds the customer; `= any(array(…))` (not `in (…)`, which the
    // planner turns into a filter over every plan) lets subscription_plans_customer_idx find its plans.
    branches.push(
      sql`${subscriptionPlans.customerId} = any(array(select ${customers.id} from ${customers} where ${customers.merchantId} = ${merchantId} and lower(${customers.email}) = lower(${search})))`,
    );
  }
  return or(...branches)!;
}

const planColumns = {
  id: subscriptionPlans.id,
  externalReference: subscriptionPlans.externalReference,
  description: subscriptionPlans.description,
  amount: subscriptionPlans.amount,
  modality: subscriptionPlans.modality,
  status: subscriptionPlans.status,
  customerEmail: subscriptionPlans.customerEmail,
  nextChargeDate: subscriptionPlans.nextChargeDate,
  createdAt: subscriptionPlans.createdAt,
  couponId: subscriptionPlans.couponId,
  discountPercent: subscriptionPlans.discountPercent,
  discountAmount: subscriptionPlans.discountAmount,
  discountPeriods: subscriptionPlans.discountPeriods,
  discountPeriodsUsed: subscriptionPlans.discountPeriodsUsed,
};

/** A page of the merchant's plans, newest first, and whether older ones remain. */
export async function listPlans(db: Db, merchantId: string, filter: PlanFilter, pageSize: number) {
  const conditions: SQL[] = [eq(subscriptionPlans.merchantId, merchantId)];
  if (filter.status) conditions.push(eq(subscriptionPlans.status, filter.status));
  if (filter.search) conditions.push(planSearch(merchantId, filter.search));
  if (filter.before) conditions.push(lt(subscriptionPlans.id, filter.before));
  const rows = await db
    .select(planColumns)
    .from(subscriptionPlans)
    .where(and(...conditions))
    .orderBy(desc(subscriptionPlans.id))
    .limit(pageSize + 1);
  return { plans: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** A page of the merchant's transactions with their plan's reference and customer, newest first. */
const refundDue = sql<boolean>`(${transactions.refundDueAt} is not null and ${transactions.refundedAt} is null)`;

export async function listTransactions(db: Db, merchantId: string, filter: TransactionFilter, pageSize: number) {
  const conditions: SQL[] = [eq(transactions.merchantId, merchantId)];
  if (filter.status) conditions.push(eq(transactions.status, filter.status));
  if (filter.search) {
    const plan = planSearch(merchantId, filter.search);
    conditions.push(/^txn_\w+$/.test(filter.search) ? or(eq(transactions.id, filter.search), plan)! : plan);
  }
  if (filter.before) conditions.push(lt(transactions.id, filter.before));
  const rows = await db
    .select({
      id: transactions.id,
      planId: transactions.planId,
      kind: transactions.kind,
      status: transactions.status,
      amount: transactions.amount,
      discount: transactions.discount,
      paymentMethodType: transactions.paymentMethodType,
      cardBrand: transactions.cardBrand,
      cardLast4: transactions.cardLast4,
      chargeDate: transactions.chargeDate,
      refundDue: refundDue.mapWith(Boolean),
      externalReference: subscriptionPlans.externalReference,
      customerEmail: subscriptionPlans.customerEmail,
    })
    .from(transactions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, transactions.planId))
    .where(and(...conditions))
    .orderBy(desc(transactions.id))
    .limit(pageSize + 1);
  return { transactions: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** The merchant's late payments still owed back (docs/billing.md#refund-due), newest first, by the partial index. */
export function listRefundsDue(db: Db, merchantId: string, limit = 100) {
  return db
    .select({
      id: transactions.id,
      planId: transactions.planId,
      amount: transactions.amount,
      paymentMethodType: transactions.paymentMethodType,
      gatewayTransactionId: transactions.gatewayTransactionId,
      chargeDate: transactions.chargeDate,
      externalReference: subscriptionPlans.externalReference,
      customerEmail: subscriptionPlans.customerEmail,
    })
    .from(transactions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, transactions.planId))
    .where(and(eq(transactions.merchantId, merchantId), isNotNull(transactions.refundDueAt), isNull(transactions.refundedAt)))
    .orderBy(desc(transactions.id))
    .limit(limit);
}

export async function listPlanTransactions(db: Db, { merchantId, planId }: { merchantId: string; planId: string }) {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.planId, planId), eq(transactions.merchantId, merchantId)))
    .orderBy(desc(transactions.id));
}
