import type { Db } from '@/db/client';
import { findLateCardPayments, getRenewalLink } from '@/db/queries/renewal-links';
import { markRefundDue, type TransactionRow } from '@/db/queries/transactions';
import { recordVoid } from './void';
import { errorFields, log } from '@/lib/log';
import type { PaymentProcessor } from '@/lib/processors';

// Renewal-link payments approved after the plan was cancelled or paused pay nothing (docs/billing.md#late-payments):
// a card is voided; PSE and Nequi cannot be, so the e-mail sends the customer to the merchant,
// and the payment is owed back until the merchant marks it refunded (docs/billing.md#refund-due).

export async function isLatePayment(db: Db, txn: Pick<TransactionRow, 'renewalLinkId' | 'status'>): Promise<boolean> {
  if (!txn.renewalLinkId || (txn.status !== 'APPROVED' && txn.status !== 'VOIDED')) return false;
  return (await getRenewalLink(db, txn.renewalLinkId))?.status !== 'PAID';
}

/** In the settling transaction: an approved late PSE or Nequi payment becomes refund due. */
export async function markLatePaymentOwed(tx: Db, txn: TransactionRow, now: Date): Promise<TransactionRow> {
  if (txn.status !== 'APPROVED' || txn.paymentMethodType === 'CARD') return txn;
  return (await markRefundDue(tx, txn.id, now)) ?? txn;
}

/** Null when there is nothing to void yet. */
export async function voidLatePayment(db: Db, processor: PaymentProcessor, txn: TransactionRow, now: Date): Promise<TransactionRow | null> {
  if (txn.status !== 'APPROVED' || txn.paymentMethodType !== 'CARD' || !txn.gatewayTransactionId || !(await isLatePayment(db, txn))) return null;
  try {
    const result = await processor.void(txn.gatewayTransactionId);
    if (result.status !== 'VOIDED') {
      log.warn('a late renewal-link payment was not voided yet', { transactionId: txn.id, status: result.status });
      return null;
    }
  } catch (error) {
    log.error('could not void a late renewal-link payment; the settler tries again', { transactionId: txn.id, ...errorFields(error) });
    return null;
  }
  return (await recordVoid(db, txn, now)) ?? null;
}

export async function voidLatePayments(
  db: Db,
  processorFor: (txn: TransactionRow) => PaymentProcessor | null | Promise<PaymentProcessor | null>,
  now: Date,
  limit = 100,
): Promise<number> {
  let voided = 0;
  for (const txn of await findLateCardPayments(db, limit)) {
    const processor = await processorFor(txn);
    if (processor && (await voidLatePayment(db, processor, txn, now))) voided++;
  }
  return voided;
}
