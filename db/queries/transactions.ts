import { and, count, desc, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { merchants, subscriptionPlans, transactions } from '../schema';
import { firstRow } from './first-row';
import { updateInStatus } from './update-in-status';

export type TransactionRow = typeof transactions.$inferSelect;

/** The plan behind a checkout token, with its merchant's public face. */
export async function getPlanByToken(db: Db, token: string) {
  const [row] = await db
    .select({ plan: subscriptionPlans, merchantName: merchants.name, allowedDomains: merchants.allowedDomains, merchantStatus: merchants.status })
    .from(subscriptionPlans)
    .innerJoin(merchants, eq(merchants.id, subscriptionPlans.merchantId))
    .where(eq(subscriptionPlans.checkoutToken, token))
    .limit(1);
  return row;
}

/** Prepared: a renewal runs it (docs/performance.md#a-renewals-statements-prepared). */
export async function insertTransaction(db: Db, values: typeof transactions.$inferInsert): Promise<TransactionRow> {
  const [row] = await db.insert(transactions).values(values).returning().prepare('insert_transaction').execute();
  return row!;
}

/**
 * Takes back an attempt the processor never handled (refused for rate before it was received):
 * the PENDING row goes, as if it had not been opened, so it counts as no failure. Nothing else
 * refers to it yet. False when it has moved on (a processor id, or a final state).
 */
export async function withdrawUnsentAttempt(db: Db, transactionId: string): Promise<boolean> {
  const gone = await db
    .delete(transactions)
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, 'PENDING'), isNull(transactions.gatewayTransactionId)))
    .returning({ id: transactions.id });
  return gone.length > 0;
}

/**
 * Failed payments of a token since `since`, and the oldest of them (card-testing guard): a plan's
 * first-payment attempts, or a renewal link's.
 */
export async function recentFailedAttempts(db: Db, { planId, renewalLinkId }: { planId: string; renewalLinkId: string | null }, since: Date) {
  const [row] = await db
    .select({ n: count(), oldest: sql<Date | null>`min(${transactions.createdAt})`.mapWith(transactions.createdAt) })
    .from(transactions)
    .where(
      and(
        eq(transactions.planId, planId),
        renewalLinkId ? eq(transactions.renewalLinkId, renewalLinkId) : eq(transactions.kind, 'INITIAL'),
        inArray(transactions.status, ['DECLINED', 'ERROR']),
        gte(transactions.createdAt, since),
      ),
    );
  return { count: row?.n ?? 0, oldest: row?.oldest ?? null };
}

export async function getTransactionOfPlan(db: Db, { planId, transactionId }: { planId: string; transactionId: string }) {
  return firstRow(db, transactions, and(eq(transactions.id, transactionId), eq(transactions.planId, planId)));
}

/**
 * A plan's PENDING transaction → final, only if still PENDING: of two settlers racing, one wins and
 * the other gets undefined. A null processor id keeps the one recorded; an undefined token keeps the
 * saved one. The database refuses a second approval of a checkout token (partial unique index).
 */
export async function settleTransaction(
  db: Db,
  { planId, transactionId }: { planId: string; transactionId: string },
  outcome: Pick<TransactionRow, 'status' | 'gatewayTransactionId' | 'failureCode' | 'failureMessage'> & { paymentMethodToken?: string | null },
): Promise<TransactionRow | undefined> {
  const values = { ...outcome, gatewayTransactionId: outcome.gatewayTransactionId ?? sql`${transactions.gatewayTransactionId}` };
  return updateInStatus(db, transactions, transactionId, 'PENDING', values as unknown as Partial<TransactionRow>, eq(transactions.planId, planId));
}

/** Records the processor's charge on a still-PENDING transaction whose outcome is not known yet. */
export async function recordPendingCharge(
  db: Db,
  transactionId: string,
  charge: Pick<TransactionRow, 'gatewayTransactionId' | 'paymentMethodToken'>,
): Promise<void> {
  await db
    .update(transactions)
    .set({ ...charge, updatedAt: sql`now()` })
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, 'PENDING')));
}

/** The method a first payment saved, recorded on its PENDING transaction before the processor charges it. */
export async function recordSavedMethod(db: Db, transactionId: string, paymentMethodToken: string): Promise<void> {
  await db
    .update(transactions)
    .set({ paymentMethodToken, updatedAt: sql`now()` })
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, 'PENDING')));
}

/** The id of the plan's newest transaction (ids sort by the time they were made), or undefined. Prepared: a renewal runs it (docs/performance.md#a-renewals-statements-prepared). */
export async function newestTransactionId(db: Db, planId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(eq(transactions.planId, planId))
    .orderBy(desc(transactions.id))
    .limit(1)
    .prepare('newest_transaction_id')
    .execute();
  return row?.id;
}

/** The plan's PENDING transaction, if any (at most one: a partial unique index). */
export async function getPendingTransaction(db: Db, planId: string): Promise<TransactionRow | undefined> {
  return firstRow(db, transactions, and(eq(transactions.planId, planId), eq(transactions.status, 'PENDING')));
}

/** A transaction of this merchant, or undefined: the merchant is in the `where`. */
export async function getTransactionForMerchant(db: Db, { merchantId, transactionId }: { merchantId: string; transactionId: string }) {
  return firstRow(db, transactions, and(eq(transactions.id, transactionId), eq(transactions.merchantId, merchantId)));
}

/** APPROVED → VOIDED, only if still APPROVED: of two voids racing, one wins, the other gets undefined. */
export async function voidTransaction(db: Db, transactionId: string): Promise<TransactionRow | undefined> {
  const [row] = await db
    .update(transactions)
    .set({ status: 'VOIDED', updatedAt: sql`now()` })
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, 'APPROVED')))
    .returning();
  return row;
}

/** A late payment that cannot be voided becomes owed back (docs/billing.md#refund-due); once. */
export async function markRefundDue(db: Db, transactionId: string, now: Date): Promise<TransactionRow | undefined> {
  const [row] = await db
    .update(transactions)
    .set({ refundDueAt: now, updatedAt: sql`now()` })
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, 'APPROVED'), isNull(transactions.refundDueAt)))
    .returning();
  return row;
}

/** Refund due → refunded, only while still due: of two marks racing, one wins, the other gets undefined. */
export async function markRefunded(db: Db, { merchantId, transactionId }: { merchantId: string; transactionId: string }, now: Date): Promise<TransactionRow | undefined> {
  const [row] = await db
    .update(transactions)
    .set({ refundedAt: now, updatedAt: sql`now()` })
    .where(and(eq(transactions.id, transactionId), eq(transactions.merchantId, merchantId), isNotNull(transactions.refundDueAt), isNull(transactions.refundedAt)))
    .returning();
  return row;
}

/** A plan's charges for its customer (the manage page), newest first. */
export function listPlanCharges(db: Db, planId: string) {
  return db
    .select({
      id: transactions.id,
      kind: transactions.kind,
      status: transactions.status,
      amount: transactions.amount,
      chargeDate: transactions.chargeDate,
      paymentMethodType: transactions.paymentMethodType,
      cardLast4: transactions.cardLast4,
    })
    .from(transactions)
    .where(eq(transactions.planId, planId))
    .orderBy(desc(transactions.id))
    .limit(50);
}
