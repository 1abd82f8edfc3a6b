import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { transactions } from '../schema';
import type { TransactionRow } from './transactions';

// The settler's queries (lib/settlement/settler.ts). A PENDING transaction's updatedAt is the time
// it was last asked about; it is due again once its age has doubled since then (at most
// `maxIntervalMs` later). At most one PENDING transaction per plan exists, so the partial index
// on PENDING rows keeps this small.

interface Schedule {
  now: Date;
  firstCheckAfterMs: number;
  orphanAfterMs: number;
  maxIntervalMs: number;
}

function dueCondition({ now, firstCheckAfterMs, orphanAfterMs, maxIntervalMs }: Schedule) {
  const at = sql`${now.toISOString()}::timestamptz`;
  return and(
    eq(transactions.status, 'PENDING'),
    sql`${transactions.createdAt} <= ${at} - case when ${transactions.gatewayTransactionId} is null
      then ${orphanAfterMs} * interval '1 millisecond' else ${firstCheckAfterMs} * interval '1 millisecond' end`,
    sql`${at} - ${transactions.updatedAt} >= least((${at} - ${transactions.createdAt}) / 2, ${maxIntervalMs} * interval '1 millisecond')`,
  );
}

/** PENDING transactions due for a check at `now`, oldest first. */
export async function findPendingToSettle(db: Db, schedule: Schedule & { limit: number }): Promise<TransactionRow[]> {
  return db.select().from(transactions).where(dueCondition(schedule)).orderBy(asc(transactions.createdAt)).limit(schedule.limit);
}

/**
 * Takes this check of `txn` for the caller: true for exactly one of several racing settlers (the
 * row lock makes a second update re-read the first one's updatedAt, which is no longer due).
 */
export async function claimPendingCheck(db: Db, txn: TransactionRow, schedule: Schedule): Promise<boolean> {
  const rows = await db
    .update(transactions)
    .set({ updatedAt: schedule.now })
    .where(and(eq(transactions.id, txn.id), dueCondition(schedule)))
    .returning({ id: transactions.id });
  return rows.length > 0;
}
