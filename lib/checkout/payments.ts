import type { Db } from '@/db/client';
import { uniqueViolation } from '@/db/errors';
import type { PlanRow, TransactionRow } from '@/db/queries/plans';
import {
  activatePlan,
  getTransactionOfPlan,
  insertTransaction,
  lockPlan,
  recentFailedAttempts,
  recordPendingCharge,
  settleTransaction,
} from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { addMonthsOnAnchor, anchorDayOf } from '@/lib/billing/calendar';
import { createId, isId } from '@/lib/ids';
import { errorFields, log } from '@/lib/log';
import type { Card } from '@/lib/payments/card';
import { type ChargeResult, DECLINE_MESSAGES, type DeclineReason, type PaymentProcessor } from '@/lib/payments';
import { dispatchWebhookEvents } from '@/lib/webhooks/dispatch';
import { recordChargeEvent } from '@/lib/webhooks/events';
import { findCheckoutPlan, findPlanByToken } from './session';

// The first payment of a plan through its checkout token (DECISIONS 5). The database decides
// every race: one PENDING transaction per plan and one approval per token are unique indexes,
// and each transition is a conditional UPDATE … WHERE status = 'PENDING'. The processor is
// called outside any database transaction.

export const MAX_FAILED_ATTEMPTS_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;

export interface PaymentView {
  subscriptionTransactionId: string;
  status: TransactionRow['status'];
  /** The processor's id (DECISIONS 8: the same value webhooks carry as data.transactionId). */
  transactionId: string | null;
  declineReason?: DeclineReason;
}

export function toPaymentView(txn: TransactionRow): PaymentView {
  return {
    subscriptionTransactionId: txn.id,
    status: txn.status,
    transactionId: txn.gatewayTransactionId,
    ...(txn.failureCode ? { declineReason: txn.failureCode as DeclineReason } : {}),
  };
}

/** Starts the plan's first payment: refuses what may not be paid, then records a PENDING transaction. */
async function openAttempt(db: Db, token: string, card: Card, now: Date): Promise<{ plan: PlanRow; txn: TransactionRow }> {
  return db.transaction(async (tx) => {
    // The status must be read under the lock: read before it, a concurrent approval could commit
    // between our read and our insert, and the customer would be charged twice.
    const plan = await lockPlan(tx, (await findCheckoutPlan(tx, token, now)).plan.id);
    if (plan.status === 'ACTIVE' || plan.status === 'COMPLETED') throw new ApiError('conflict', 'This link has already been paid');
    if (plan.status !== 'PENDING_ACTIVATION') throw new ApiError('conflict', 'This subscription no longer accepts payments');
    const failed = await recentFailedAttempts(tx, plan.id, new Date(now.getTime() - HOUR_MS));
    if (failed.count >= MAX_FAILED_ATTEMPTS_PER_HOUR) {
      const retryAfter = Math.max(1, Math.ceil(((failed.oldest?.getTime() ?? now.getTime()) + HOUR_MS - now.getTime()) / 1000));
      throw new ApiError('rate_limited', 'Too many failed attempts on this link; try again later', {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    try {
      const txn = await insertTransaction(tx, {
        id: createId('txn', now.getTime()),
        planId: plan.id,
        merchantId: plan.merchantId,
        kind: 'INITIAL',
        status: 'PENDING',
        // Always the plan's amount: nothing the browser sends decides what is charged.
        amount: plan.amount,
        chargeDate: now,
        cardBrand: card.brand,
        cardLast4: card.last4,
      });
      return { plan, txn };
    } catch (error) {
      if (uniqueViolation(error) === 'transactions_one_pending_per_plan') {
        throw new ApiError('conflict', 'A payment for this link is already in progress');
      }
      throw error;
    }
  });
}

/**
 * Records a processor result on a PENDING transaction and, for an approval, moves the plan on
 * (RECURRING → ACTIVE with its next charge a month on; SINGLE → COMPLETED), in one transaction
 * with the outcome's webhook event. Whoever settles first wins; a later caller gets the
 * transaction as it stands. The event is handed to delivery once committed.
 */
async function recordResult(db: Db, plan: PlanRow, txn: TransactionRow, result: ChargeResult, paymentMethod: string | null) {
  const { settled, eventId } = await db.transaction(async (tx) => {
    await lockPlan(tx, plan.id);
    if (result.status === 'PENDING') {
      const charged = { gatewayTransactionId: result.gatewayTransactionId, paymentMethodToken: paymentMethod };
      await recordPendingCharge(tx, txn.id, charged);
      return { settled: { ...txn, ...charged }, eventId: null };
    }
    const settled = await settleTransaction(tx, txn.id, {
      status: result.status,
      gatewayTransactionId: result.gatewayTransactionId || txn.gatewayTransactionId,
      paymentMethodToken: paymentMethod,
      failureCode: result.declineReason ?? null,
      failureMessage: result.declineReason ? DECLINE_MESSAGES[result.declineReason] : null,
    });
    if (!settled) return { settled: (await getTransactionOfPlan(tx, { planId: plan.id, transactionId: txn.id }))!, eventId: null };
    if (settled.status === 'APPROVED') {
      const recurring = plan.modality === 'RECURRING';
      const anchor = anchorDayOf(settled.chargeDate);
      const activated = await activatePlan(tx, plan.id, {
        status: recurring ? 'ACTIVE' : 'COMPLETED',
        nextChargeDate: recurring ? addMonthsOnAnchor(settled.chargeDate, 1, anchor) : null,
        billingAnchorDay: recurring ? anchor : null,
        paymentMethodToken: recurring ? paymentMethod : null,
      });
      if (!activated) log.error('approved a charge for a plan that was no longer pending', { planId: plan.id, transactionId: txn.id });
    }
    return { settled, eventId: await recordChargeEvent(tx, plan, settled) };
  });
  if (eventId) dispatchWebhookEvents([eventId]);
  return settled;
}

/** The customer pays the link with a card: one attempt, its outcome or PENDING. */
export async function payWithCard(
  db: Db,
  processor: PaymentProcessor,
  { token, card, now = new Date() }: { token: string; card: Card; now?: Date },
): Promise<PaymentView> {
  const { plan, txn } = await openAttempt(db, token, card, now);
  let result: ChargeResult;
  let paymentMethod: string | null = null;
  try {
    paymentMethod = (await processor.tokenize(card)).token;
    result = await processor.charge({ amount: txn.amount, currency: 'COP', reference: txn.id, paymentMethod, initiator: 'customer' });
  } catch (error) {
    log.error('payment processor failed', { transactionId: txn.id, ...errorFields(error) });
    result = { status: 'ERROR', gatewayTransactionId: '', declineReason: 'processor_error' };
  }
  return toPaymentView(await recordResult(db, plan, txn, result, paymentMethod));
}

/** A payment of this link as it stands; a PENDING one is settled first if the processor has decided. */
export async function getPayment(
  db: Db,
  processor: PaymentProcessor,
  { token, transactionId }: { token: string; transactionId: string },
): Promise<PaymentView> {
  const notFound = new ApiError('not_found', 'No payment with this id for this checkout session');
  if (!isId('txn', transactionId)) throw notFound;
  // Whatever the link's expiry: a PENDING payment keeps settling after the link expires.
  const { plan } = await findPlanByToken(db, token);
  const txn = await getTransactionOfPlan(db, { planId: plan.id, transactionId });
  if (!txn) throw notFound;
  if (txn.status !== 'PENDING' || !txn.gatewayTransactionId) return toPaymentView(txn);
  const result = await processor.retrieve(txn.gatewayTransactionId);
  if (result.status === 'PENDING') return toPaymentView(txn);
  return toPaymentView(await recordResult(db, plan, txn, result, txn.paymentMethodToken));
}
