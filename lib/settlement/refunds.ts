import type { Db } from '@/db/client';
import { lockPlan } from '@/db/queries/plans';
import { getTransactionForMerchant, markRefunded, type TransactionRow } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { findOwned } from '@/lib/api/ownership';
import { type AuditActor, recordAudit } from '@/lib/audit/record';
import { inTransaction } from '@/lib/unit-of-work';

// Refund due (docs/billing.md#refund-due): a late PSE or Nequi payment stays owed back to the
// customer until the merchant, who refunds it at the processor, marks it refunded here.

export function isRefundDue(txn: Pick<TransactionRow, 'refundDueAt' | 'refundedAt'>): boolean {
  return txn.refundDueAt !== null && txn.refundedAt === null;
}

/** 404 unknown, 403 another merchant's, 409 not due or already marked; audited with the change. */
export async function markPaymentRefunded(
  db: Db,
  { merchantId, transactionId, actor, now = new Date() }: { merchantId: string; transactionId: string; actor: AuditActor; now?: Date },
): Promise<TransactionRow> {
  const txn = await findOwned(db, 'txn', transactionId, () => getTransactionForMerchant(db, { merchantId, transactionId }));
  return inTransaction(db, async (tx) => {
    await lockPlan(tx, txn.planId);
    const refunded = await markRefunded(tx, { merchantId, transactionId }, now);
    if (!refunded) {
      const current = (await getTransactionForMerchant(tx, { merchantId, transactionId })) ?? txn;
      if (current.refundedAt) throw new ApiError('conflict', `This payment was already marked refunded on ${current.refundedAt.toISOString()}`);
      throw new ApiError('conflict', 'This payment is not owed back: only a late PSE or Nequi payment with a refund due can be marked refunded');
    }
    await recordAudit(tx, {
      merchantId,
      actor,
      action: 'transaction.refunded',
      target: transactionId,
      changes: { amount: refunded.amount, paymentMethodType: refunded.paymentMethodType, gatewayTransactionId: refunded.gatewayTransactionId },
    });
    return refunded;
  });
}
