import type { Db } from '@/db/client';
import type { PlanRow } from '@/db/queries/plans';
import type { RenewalLinkRow } from '@/db/queries/renewal-links';
import type { TransactionRow } from '@/db/queries/transactions';
import { queueCustomerEmail } from '@/lib/email/record';
import { amountForPeriod, listAmountOf } from '@/lib/calendar/schedule';
import { chargesOf, trialCharges } from '@/lib/coupons/discount';
import type { RenewalStage } from '@/lib/email/templates';

export type { RenewalStage };
export { type CancelReason, cancelReasonText } from './cancel-reason';
import type { Outbox } from './outbox';
import type { CancelReason } from './cancel-reason';
import { recordLifecycleEvent } from '@/lib/webhooks/events';
import type { LifecycleEventType } from '@/lib/webhooks/payload';

// What a plan change tells: lifecycle webhook events and the customer's e-mails, in its unit of work.

export function wasPaid(plan: Pick<PlanRow, 'status'>): boolean {
  return plan.status !== 'PENDING_ACTIVATION';
}

/** A cancel e-mails the customer unless the plan was never paid. */
export async function notePlanChange(
  tx: Db,
  outbox: Outbox,
  { before, after }: { before: PlanRow; after: PlanRow },
  type: LifecycleEventType,
  { now = new Date(), reason }: { now?: Date; reason?: CancelReason } = {},
): Promise<void> {
  await recordLifecycleEvent(tx, outbox, after, type, now);
  if (type === 'subscription.cancelled' && wasPaid(before)) await queueCustomerEmail(tx, outbox, 'cancelled', { plan: after, now, reason });
}

/** What a settled charge tells (receipt, notice, activation, cancellation); settle.ts calls it once. */
export async function noteSettlement(
  tx: Db,
  outbox: Outbox,
  before: PlanRow,
  after: PlanRow,
  txn: TransactionRow,
  now: Date,
  { late = false }: { late?: boolean } = {},
): Promise<void> {
  // A link payment after a cancel or pause pays nothing: the customer is told what happens to the money.
  if (txn.status === 'APPROVED') await queueCustomerEmail(tx, outbox, late ? 'late_payment' : 'receipt', { plan: after, txn, now });
  if (late && txn.refundDueAt && !txn.refundedAt) await noteRefundDue(tx, outbox, after, txn, now);
  if ((before.status === 'PENDING_ACTIVATION' || before.status === 'TRIALING') && after.status === 'ACTIVE') {
    await recordLifecycleEvent(tx, outbox, after, 'subscription.activated', now);
  }
  // A retry is announced only for automatic charging; a link's failure gets the ladder's link e-mail instead.
  const failedRenewal = txn.kind === 'RENEWAL' && !txn.renewalLinkId && (txn.status === 'DECLINED' || txn.status === 'ERROR');
  if (failedRenewal && (after.status === 'ACTIVE' || after.status === 'TRIALING') && after.renewalCollection === 'AUTOMATIC' && after.renewalFailures > before.renewalFailures) {
    await queueCustomerEmail(tx, outbox, 'renewal_failed', { plan: after, txn, now });
  }
  if (txn.kind === 'PRORATION' && txn.status === 'APPROVED' && before.scheduledAmount !== null) {
    await notePriceChange(tx, outbox, { before, after, effective: 'now', effectiveAt: null, now });
  }
  if (before.status !== 'CANCELLED' && after.status === 'CANCELLED') {
    await recordLifecycleEvent(tx, outbox, after, 'subscription.cancelled', now);
    // Only a renewal's last failed retry cancels in settlement.
    const reason: CancelReason = { code: 'renewal_failed', attempts: before.renewalFailures + 1, last: txn.failureCode ?? txn.status };
    await queueCustomerEmail(tx, outbox, 'cancelled', { plan: after, now, reason });
  }
}

/** A late payment the merchant owes back (docs/billing.md#refund-due): `charge.refund_due`, if chosen. */
async function noteRefundDue(tx: Db, outbox: Outbox, plan: PlanRow, txn: TransactionRow, now: Date): Promise<void> {
  if (txn.paymentMethodType === 'CARD') return;
  const refund = {
    subscriptionTransactionId: txn.id,
    transactionId: txn.gatewayTransactionId,
    amount: txn.amount,
    paymentMethodType: txn.paymentMethodType,
    chargeDate: txn.chargeDate.getTime(),
  };
  await recordLifecycleEvent(tx, outbox, plan, 'charge.refund_due', now, { refund });
}

/** A trial of 3 days or less sends its trial_will_end now. */
export async function noteTrialStarted(tx: Db, outbox: Outbox, plan: PlanRow, now: Date): Promise<void> {
  const endsAt = plan.trialEndsAt!;
  const noticeFollows = plan.trialNoticeAt !== null;
  const charges = trialCharges(plan, amountForPeriod(plan, endsAt));
  await queueCustomerEmail(tx, outbox, 'trial_started', { plan, now, trial: { endsAt, noticeFollows, ...charges } });
  if (!noticeFollows) await recordLifecycleEvent(tx, outbox, plan, 'subscription.trial_will_end', now, { trial: { endsAt: endsAt.getTime(), amount: charges.amount } });
}

export async function noteTrialEnding(tx: Db, outbox: Outbox, plan: PlanRow, now: Date): Promise<void> {
  const endsAt = plan.trialEndsAt!;
  const charges = trialCharges(plan, amountForPeriod(plan, endsAt));
  await queueCustomerEmail(tx, outbox, 'trial_ending', { plan, now, trial: { endsAt, noticeFollows: false, ...charges } });
  await recordLifecycleEvent(tx, outbox, plan, 'subscription.trial_will_end', now, { trial: { endsAt: endsAt.getTime(), amount: charges.amount } });
}

export async function notePriceChange(
  tx: Db,
  outbox: Outbox,
  { before, after, effective, effectiveAt, now }: { before: PlanRow; after: PlanRow; effective: 'next_charge' | 'now'; effectiveAt: Date | null; now: Date },
): Promise<void> {
  const amount = after.scheduledAmount ?? after.amount;
  const quantity = after.scheduledAmount !== null ? (after.scheduledQuantity ?? after.quantity) : after.quantity;
  const description = after.scheduledDescription ?? after.description;
  // Quotes each charge with seats included.
  await queueCustomerEmail(tx, outbox, 'price_change', {
    plan: { ...after, amount, quantity, description },
    now,
    change: { previousAmount: listAmountOf(before), effectiveAt, now: effective === 'now' },
  });
  await recordLifecycleEvent(tx, outbox, after, 'subscription.updated', now, {
    change: { amount, description, effective, effectiveAt: effectiveAt?.getTime() ?? null, ...(quantity !== 1 || before.quantity !== 1 ? { quantity } : {}) },
  });
}

export async function noteRenewalLink(
  tx: Db,
  outbox: Outbox,
  plan: PlanRow,
  link: Pick<RenewalLinkRow, 'period' | 'expiresAt' | 'amount'> & { url: string },
  stage: RenewalStage,
  now: Date,
): Promise<void> {
  // The link names the list price; a coupon's discount comes off when it is paid (lib/settlement/attempt.ts).
  const { now: amount, discount } = chargesOf(plan, link.amount);
  const renewal = { url: link.url, stage, period: link.period, expiresAt: link.expiresAt, amount, ...(discount > 0 ? { listAmount: link.amount } : {}) };
  if (stage === 'issued' || stage === 'ladder') {
    await recordLifecycleEvent(tx, outbox, plan, 'subscription.renewal_due', now, {
      renewal: { url: link.url, expiresAt: link.expiresAt.getTime(), amount, period: link.period.getTime() },
    });
  }
  await queueCustomerEmail(tx, outbox, 'renewal_due', { plan, renewal, now });
}
