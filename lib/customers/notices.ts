import type { Db } from '@/db/client';
import type { PlanRow, TransactionRow } from '@/db/queries/plans';
import { queueCustomerEmail } from '@/lib/email/outbox';
import type { Outbox } from '@/lib/outbox';
import { recordLifecycleEvent } from '@/lib/webhooks/events';
import type { LifecycleEventType } from '@/lib/webhooks/payload';

// What a change to a plan tells the merchant and the customer (docs/customers.md): lifecycle
// webhook events, for the merchants who chose them, and the customer's e-mails (receipt, failed
// renewal, cancellation). Written in the unit of work that made the change (lib/unit-of-work.ts),
// delivered once it commits; the sweepers take whatever a crash leaves behind.

/** A plan change made by the merchant or the customer (pause, resume, cancel, a new payment method). */
export async function notePlanChange(tx: Db, outbox: Outbox, plan: PlanRow, type: LifecycleEventType, now: Date = new Date()): Promise<void> {
  await recordLifecycleEvent(tx, outbox, plan, type, now);
  if (type === 'subscription.cancelled') await queueCustomerEmail(tx, outbox, 'cancelled', { plan, now });
}

/**
 * What a settled charge tells (lib/settlement/settle.ts, once for every caller): a receipt for an
 * approval; a notice with the retry date for a failed renewal; the activation of a RECURRING
 * plan; and, after the last failed retry, the cancellation.
 */
export async function noteSettlement(tx: Db, outbox: Outbox, before: PlanRow, after: PlanRow, txn: TransactionRow, now: Date): Promise<void> {
  if (txn.status === 'APPROVED') await queueCustomerEmail(tx, outbox, 'receipt', { plan: after, txn, now });
  if (before.status === 'PENDING_ACTIVATION' && after.status === 'ACTIVE') await recordLifecycleEvent(tx, outbox, after, 'subscription.activated', now);
  const failedRenewal = txn.kind === 'RENEWAL' && (txn.status === 'DECLINED' || txn.status === 'ERROR');
  if (failedRenewal && after.status === 'ACTIVE' && after.renewalFailures > 0) {
    await queueCustomerEmail(tx, outbox, 'renewal_failed', { plan: after, txn, now });
  }
  if (txn.kind === 'PRORATION' && txn.status === 'APPROVED' && before.scheduledAmount !== null) {
    await notePriceChange(tx, outbox, { before, after, effective: 'now', effectiveAt: null, now });
  }
  if (before.status !== 'CANCELLED' && after.status === 'CANCELLED') {
    await recordLifecycleEvent(tx, outbox, after, 'subscription.cancelled', now);
    await queueCustomerEmail(tx, outbox, 'cancelled', { plan: after, now });
  }
}

/** The e-mail and the opt-in event of a price change, in the unit of work that records it. */
export async function notePriceChange(
  tx: Db,
  outbox: Outbox,
  { before, after, effective, effectiveAt, now }: { before: PlanRow; after: PlanRow; effective: 'next_charge' | 'now'; effectiveAt: Date | null; now: Date },
): Promise<void> {
  const amount = after.scheduledAmount ?? after.amount;
  const description = after.scheduledDescription ?? after.description;
  await queueCustomerEmail(tx, outbox, 'price_change', {
    plan: { ...after, amount, description },
    now,
    change: { previousAmount: before.amount, effectiveAt, now: effective === 'now' },
  });
  await recordLifecycleEvent(tx, outbox, after, 'subscription.updated', now, {
    change: { amount, description, effective, effectiveAt: effectiveAt?.getTime() ?? null },
  });
}
