import type { Db } from '@/db/client';
import { countDiscountedCharge } from '@/db/queries/coupons';
import { activatePlan, lockPlan, type PlanRow, transitionPlan } from '@/db/queries/plans';
import { getTransactionOfPlan, recordPendingCharge, settleTransaction, type TransactionRow } from '@/db/queries/transactions';
import { addInterval, anchorFor, intervalOf } from '@/lib/calendar/interval';
import { isLatePayment, markLatePaymentOwed } from '@/lib/settlement/late-payments';
import { settleLinkPayment, stepDownToLink } from '@/lib/settlement/renewal-links';
import { afterRenewalOutcome, firstPeriodOf, termEndFrom } from '@/lib/calendar/schedule';
import { errorFields, log } from '@/lib/log';
import { type ChargeResult, DECLINE_MESSAGES, type DeclineReason, type PaymentProcessor } from '@/lib/processors';
import { noteInvoice } from '@/lib/invoices/record';
import { noteSettlement } from '@/lib/notices';
import type { Outbox } from '@/lib/outbox';
import { inTransaction } from '@/lib/unit-of-work';
import { recordChargeEvent } from '@/lib/webhooks/events';

// The one way a charge's outcome is recorded (docs/settlement.md): under the plan's lock, state,
// plan change and events in one unit of work. Whoever settles first wins.

export type ChargeOutcome =
  | ChargeResult
  | { status: 'ERROR'; gatewayTransactionId: null; declineReason: DeclineReason }
  /** Declined before reaching the processor (a Nequi account refused in the app). */
  | { status: 'DECLINED'; gatewayTransactionId: null; declineReason: DeclineReason };

/** Its id stays null. */
export const NEVER_RECEIVED: ChargeOutcome = { status: 'ERROR', gatewayTransactionId: null, declineReason: 'processor_error' };

/** Looks the charge up by our reference; null leaves it PENDING for the settler. */
export async function outcomeAfterFailedCharge(processor: PaymentProcessor, reference: string): Promise<ChargeOutcome | null> {
  try {
    return (await processor.findByReference(reference)) ?? NEVER_RECEIVED;
  } catch (error) {
    log.error('payment processor did not answer about a charge; the settler will ask again', { transactionId: reference, ...errorFields(error) });
    return null;
  }
}

export interface Settlement {
  transaction: TransactionRow;
  plan: PlanRow;
  /** False: still PENDING, or settled before. */
  settled: boolean;
}

/** Approved makes the scheduled price the plan's; refused drops the change. */
async function applyProration(tx: Db, plan: PlanRow, txn: TransactionRow): Promise<PlanRow> {
  if (plan.scheduledAmount === null || (txn.status !== 'APPROVED' && txn.status !== 'DECLINED' && txn.status !== 'ERROR')) return plan;
  const cleared = { scheduledAmount: null, scheduledQuantity: null, scheduledDescription: null, scheduledFrom: null };
  const applied =
    txn.status === 'APPROVED'
      ? { amount: plan.scheduledAmount, quantity: plan.scheduledQuantity ?? plan.quantity, description: plan.scheduledDescription ?? plan.description }
      : {};
  return (await transitionPlan(tx, plan.id, [plan.status], { ...applied, ...cleared })) ?? plan;
}

/** Inside the settling transaction. */
async function movePlan(tx: Db, outbox: Outbox, plan: PlanRow, txn: TransactionRow, now: Date, unsent: boolean): Promise<PlanRow> {
  if (txn.kind === 'INITIAL') {
    if (txn.status !== 'APPROVED') return plan;
    // RECURRING → ACTIVE one interval on; SINGLE → COMPLETED. RECURRING paid by PSE renews by link.
    const interval = plan.modality === 'RECURRING' ? intervalOf(plan) : null;
    const recurring = interval !== null;
    const anchor = interval && (plan.billingDay ?? anchorFor(interval, txn.chargeDate));
    // A billing day's first period ends on it (docs/billing.md#billing-day); full periods, and a minimum term, start there.
    const fullFrom = firstPeriodOf(plan, txn.chargeDate)?.end;
    const activated = await activatePlan(tx, plan.id, {
      status: recurring ? 'ACTIVE' : 'COMPLETED',
      nextChargeDate: interval ? (fullFrom ?? addInterval(txn.chargeDate, interval, anchor)) : null,
      billingAnchorDay: anchor,
      paymentMethodToken: recurring ? txn.paymentMethodToken : null,
      renewalCollection: recurring && txn.paymentMethodType === 'PSE' ? 'LINK' : 'AUTOMATIC',
      termEndsAt: termEndFrom(plan, fullFrom ?? txn.chargeDate, anchor),
    });
    if (!activated) log.error('approved a charge for a plan that was no longer pending', { planId: plan.id, transactionId: txn.id });
    return activated ?? plan;
  }
  if (txn.kind === 'PRORATION') return applyProration(tx, plan, txn);
  // A trial's setup fee moves nothing: the trial starts once it is approved.
  if (txn.kind === 'SETUP_FEE') return plan;
  if (txn.status === 'VOIDED' || txn.status === 'PENDING') return plan;
  // A link's payment, or the saved method's at a period with an open link (renewal-links.ts).
  if (txn.renewalLinkId) return settleLinkPayment(tx, plan, txn);
  // Lost before the processor had it (our crash): not the customer's failure; the next sweep charges anew.
  if (unsent) return plan;
  // A plan paused or cancelled during a renewal keeps its state; a TRIALING plan's renewal ends its trial.
  if (plan.status !== 'ACTIVE' && plan.status !== 'TRIALING') return plan;
  const values = afterRenewalOutcome(plan, txn.status, txn.failureCode);
  // The ladder: a renewal link and grace before cancelling. A trial never paid is cancelled.
  const ladder = values.status === 'CANCELLED' && plan.status === 'ACTIVE' ? await stepDownToLink(tx, outbox, plan, now) : null;
  return ladder ?? (await transitionPlan(tx, plan.id, [plan.status], values)) ?? plan;
}

/** PENDING keeps the processor's id; a final outcome settles it. */
export async function settleCharge(
  db: Db,
  { planId, transactionId }: { planId: string; transactionId: string },
  outcome: ChargeOutcome,
  {
    now = new Date(),
    paymentMethodToken,
    unsent = false,
  }: {
    now?: Date;
    paymentMethodToken?: string | null;
    /** The settler found no trace of it at the processor (docs/settlement.md#the-settler). */
    unsent?: boolean;
  } = {},
): Promise<Settlement> {
  return inTransaction(db, async (tx, outbox): Promise<Settlement> => {
    const plan = await lockPlan(tx, planId);
    // A final answer settles the transaction if it is still PENDING, in one statement; under the
    // plan's lock a PENDING transaction cannot change, so only a settled one or a PENDING answer reads it.
    const settled =
      plan && outcome.status !== 'PENDING'
        ? await settleTransaction(
            tx,
            { planId, transactionId },
            {
              status: outcome.status,
              gatewayTransactionId: outcome.gatewayTransactionId,
              paymentMethodToken,
              failureCode: outcome.declineReason ?? null,
              failureMessage: outcome.declineReason ? DECLINE_MESSAGES[outcome.declineReason] : null,
            },
          )
        : undefined;
    if (!settled) {
      const txn = await getTransactionOfPlan(tx, { planId, transactionId });
      if (!plan || !txn) throw new Error(`no transaction ${transactionId} of plan ${planId}`);
      const unchanged = { transaction: txn, plan, settled: false };
      if (txn.status !== 'PENDING' || outcome.status !== 'PENDING') return unchanged;
      const methodToken = paymentMethodToken === undefined ? txn.paymentMethodToken : paymentMethodToken;
      if (outcome.gatewayTransactionId === txn.gatewayTransactionId && methodToken === txn.paymentMethodToken) return unchanged;
      const charged = { gatewayTransactionId: outcome.gatewayTransactionId, paymentMethodToken: methodToken };
      await recordPendingCharge(tx, txn.id, charged);
      return { transaction: { ...txn, ...charged }, plan, settled: false };
    }
    await recordChargeEvent(tx, outbox, plan, settled, now);
    await noteInvoice(tx, outbox, plan, settled, now);
    // An approved discounted charge uses one of the coupon's periods.
    const counted = settled.status === 'APPROVED' && settled.discount > 0 ? await countDiscountedCharge(tx, plan.id) : plan;
    const moved = await movePlan(tx, outbox, counted, settled, now, unsent);
    const late = await isLatePayment(tx, settled);
    const recorded = late ? await markLatePaymentOwed(tx, settled, now) : settled;
    // Lifecycle events and e-mails, once here for every caller; a late payment gets no receipt.
    await noteSettlement(tx, outbox, plan, moved, recorded, now, { late });
    return { transaction: recorded, plan: moved, settled: true };
  });
}
