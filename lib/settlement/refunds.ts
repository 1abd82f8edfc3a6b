import type { Db } from '@/db/client';
import { lockPlan } from '@/db/queries/plans';
import { getTransactionForMerchant, markRefunded, type TransactionRow } from '@/db/queries/transactions';
import { findOwned } from '@/lib/api/ownership';
import { type AuditActor, recordAudit } from '@/lib/audit/record';
import { inTransaction } from '@/lib/unit-of-work';

// Refund due (docs/billing.md#refund-due): a late PSE or Nequi payment stays owed back to the
// customer until the merchant, who refunds it at the processor, marks it refunded here.

export function isRefundDue(txn: Pick<TransactionRow, 'refundDueAt' | 'refundedAt'>): boolean {
  return txn.refundDueAt !== null && txn.refundedAt === null;
}

export type RefundMark = { ok: true; txn: TransactionRow } | { ok: false; problem: 'already_refunded'; refundedAt: Date } | { ok: false; problem: 'not_due' };

/** 404 unknown and 403 another merchant's (ApiError); a payment not due, or marked before, is refused and nothing changes. */
export async function markPaymentRefunded(
  db: Db,
  { merchantId, transactionId, actor, now = new Date() }: { merchantId: string; transactionId: string; actor: AuditActor; now?: Date },
): Promise<RefundMark> {
  const txn = await findOwned(db, 'txn', transactionId, () => getTransactionForMerchant(db, { merchantId, transactionId }));
  return inTransaction(db, async (tx): Promise<RefundMark> => {
    await lockPlan(tx, txn.planId);
    const refunded = await markRefunded(tx, { merchantId, transactionId }, now);
    if (!refunded) {
      const current = (await getTransactionForMerchant(tx, { merchantId, transactionId })) ?? txn;
      return current.refundedAt ? { ok: false, problem: 'already_refunded', refundedAt: current.refundedAt } : { ok: false, problem: 'not_due' };
    }
    await recordAudit(tx, {
      merchantId,
      actor,
      action: 'transaction.refunded',
      target: transactionId,
      changes: { amount: refunded.amount, paymentMethodType: refunded.paymentMethodType, gatewayTransactionId: refunded.gatewayTransactionId },
    });
    return { ok: true, txn: refunded };
  });
}
