import type { Db } from '@/db/client';
import { lockPlan } from '@/db/queries/plans';
import { getTransactionForMerchant, type TransactionRow, voidTransaction } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { findOwned } from '@/lib/api/ownership';
import { type ProcessorSource, resolveProcessor } from '@/lib/processors';
import { noteVoidedCharge } from '@/lib/invoices/record';
import { inTransaction } from '@/lib/unit-of-work';
import { recordChargeEvent } from '@/lib/webhooks/events';
import type { VoidedView } from './schemas';

// POST /merchants/transactions/{id}/void: the processor voids first, then the void is recorded
// under the plan's lock. The plan does not change.

/** Once however many paths learn of it; undefined otherwise. */
export async function recordVoid(db: Db, txn: Pick<TransactionRow, 'id' | 'planId'>, now = new Date()): Promise<TransactionRow | undefined> {
  return inTransaction(db, async (tx, outbox) => {
    const plan = await lockPlan(tx, txn.planId);
    const voided = await voidTransaction(tx, txn.id);
    if (voided) {
      await recordChargeEvent(tx, outbox, plan, voided, now);
      // Its invoice's credit note or cancellation (docs/einvoicing.md#voids).
      await noteVoidedCharge(tx, outbox, voided, now);
    }
    return voided;
  });
}

export async function voidCharge(
  db: Db,
  processors: ProcessorSource,
  { merchantId, transactionId, now = new Date() }: { merchantId: string; transactionId: string; now?: Date },
): Promise<VoidedView> {
  const txn = await findOwned(db, 'txn', transactionId, () => getTransactionForMerchant(db, { merchantId, transactionId }));
  const refused = (status: string) => new ApiError('conflict', `Only an APPROVED transaction can be voided; this one is ${status}`);
  if (txn.status !== 'APPROVED' || !txn.gatewayTransactionId) throw refused(txn.status);
  // Wompi voids card charges only; the merchant refunds Nequi or PSE.
  if (txn.paymentMethodType !== 'CARD') {
    throw new ApiError('conflict', `A ${txn.paymentMethodType} payment cannot be voided; only card charges can`);
  }
  const processor = await resolveProcessor(processors, merchantId);
  if (!processor) throw new ApiError('conflict', 'This merchant has no payment processor configured');
  const result = await processor.void(txn.gatewayTransactionId);
  if (result.status === 'PENDING') {
    throw new ApiError('conflict', 'The processor has not confirmed the void yet; the transaction becomes VOIDED, with its subscription.charge.voided webhook, once it does');
  }
  if (result.status !== 'VOIDED') throw new ApiError('conflict', 'The processor refused to void this charge');
  const voided = await recordVoid(db, txn, now);
  // Another void won (a concurrent request or Wompi's VOIDED event) and wrote the event.
  if (!voided) throw refused('VOIDED');
  return {
    subscriptionTransactionId: voided.id,
    status: 'VOIDED',
    amount: voided.amount,
    chargeDate: voided.chargeDate.getTime(),
    gatewayTransactionId: voided.gatewayTransactionId,
  };
}
