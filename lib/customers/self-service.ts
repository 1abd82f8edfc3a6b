import type { Db } from '@/db/client';
import { lockPlan, type PlanRow, setPaymentMethodToken, transitionPlan } from '@/db/queries/plans';
import { getOpenRenewalLink } from '@/db/queries/renewal-links';
import { ApiError } from '@/lib/api/errors';
import { type ProcessorSource, resolveProcessor } from '@/lib/processors';
import type { Consent, PaymentInstrument } from '@/lib/processors/processor';
import { CUSTOMER_CANCEL_REASON, cancelReasonText } from '@/lib/cancel-reason';
import { cancelAtPeriodEnd, undoCancelAt } from '@/lib/plans/cancel-at';
import { transitionFrom } from '@/lib/plans/lifecycle';
import { termEndOf } from '@/lib/calendar/schedule';
import { findManagedPlan } from '@/lib/auth/manage-links';
import { inTransaction } from '@/lib/unit-of-work';
import { notePlanChange, wasPaid } from '@/lib/notices';
import { changePlanBuyer, type PlanBuyer } from '@/lib/invoices/buyer';

// What the customer does on /manage/<token> (docs/customers.md): cancel (immediate, docs/states.md, unless a minimum term runs)
// and replace the payment method renewals charge. Each checks the token again, takes the plan's
// lock, and writes its lifecycle event and e-mail in the same database transaction.

/** The 409 for a processor that cannot save a method without a charge. */
export const REPLACEMENT_UNAVAILABLE = 'Replacing the payment method is not available with this processor yet; ask the merchant';

async function planOfToken(db: Db, token: string, now: Date): Promise<PlanRow> {
  const found = await findManagedPlan(db, token, now);
  if (!found) throw new ApiError('not_found', 'This link is not valid or has expired');
  return found.plan;
}

/**
 * Cancels the plan; `emailed` says whether a confirmation e-mail went (none for a plan never paid).
 * In a minimum term (docs/billing.md#minimum-term) it is scheduled for the term's end instead.
 */
export async function cancelByCustomer(db: Db, token: string, now: Date = new Date()): Promise<{ plan: PlanRow; emailed: boolean }> {
  if (termEndOf(await planOfToken(db, token, now), now)) return { plan: await cancelAtPeriodEndByCustomer(db, token, now), emailed: false };
  const reason = { code: 'customer' } as const;
  const { before, after } = await transitionFrom(
    db,
    (tx) => planOfToken(tx, token, now),
    {
      from: ['PENDING_ACTIVATION', 'TRIALING', 'ACTIVE', 'PAUSED'],
      change: () => ({ status: 'CANCELLED', cancelReason: cancelReasonText(reason), cancelAt: null }),
      refused: 'This plan cannot be cancelled',
      event: 'subscription.cancelled',
      reason,
    },
    now,
  );
  return { plan: after, emailed: wasPaid(before) };
}

/** Cancels the plan at the end of its period (docs/billing.md#cancel-at-the-end-of-the-period): it stays as it is until then. */
export function cancelAtPeriodEndByCustomer(db: Db, token: string, now: Date = new Date()): Promise<PlanRow> {
  return cancelAtPeriodEnd(db, (tx) => planOfToken(tx, token, now), { text: CUSTOMER_CANCEL_REASON, now });
}

/** Keeps the plan: undoes a cancellation at the end of the period before it takes effect. */
export function keepByCustomer(db: Db, token: string, now: Date = new Date()): Promise<PlanRow> {
  return undoCancelAt(db, (tx) => planOfToken(tx, token, now), now);
}

/**
 * Replaces the saved method of an ACTIVE or PAUSED RECURRING plan once the processor accepts it. A
 * plan renewed by link goes automatic on it; `openRenewal` says a period's link is still open
 * (docs/billing.md#a-new-method-while-a-link-is-open).
 */
export async function replacePaymentMethod(
  db: Db,
  processors: ProcessorSource,
  { token, instrument, consent, now = new Date() }: { token: string; instrument: PaymentInstrument; consent?: Consent; now?: Date },
): Promise<{ plan: PlanRow; declined?: string; openRenewal?: { expiresAt: Date } }> {
  const found = await planOfToken(db, token, now);
  const replaceable = (status: PlanRow['status']) => status === 'TRIALING' || status === 'ACTIVE' || status === 'PAUSED';
  if (found.modality !== 'RECURRING' || !replaceable(found.status)) {
    throw new ApiError('conflict', `The payment method of a ${found.status} plan cannot be replaced`);
  }
  const processor = await resolveProcessor(processors, found.merchantId);
  if (!processor) throw new ApiError('conflict', 'This merchant cannot take payments yet');
  if (!processor.saveMethod) {
    throw new ApiError('conflict', REPLACEMENT_UNAVAILABLE);
  }
  const saved = await processor.saveMethod({ instrument, customerEmail: found.customerEmail, consent });
  if (!saved.ok) return { plan: found, declined: saved.declineReason };
  return inTransaction(db, async (tx, outbox) => {
    const locked = await lockPlan(tx, found.id);
    if (!replaceable(locked.status)) throw new ApiError('conflict', `The plan is ${locked.status}`);
    const updated =
      locked.renewalCollection === 'LINK'
        ? ((await transitionPlan(tx, locked.id, [locked.status], { paymentMethodToken: saved.token, renewalCollection: 'AUTOMATIC' })) ?? locked)
        : await setPaymentMethodToken(tx, locked.id, saved.token);
    await notePlanChange(tx, outbox, { before: locked, after: updated }, 'subscription.payment_method_updated', { now });
    const open = await getOpenRenewalLink(tx, locked.id);
    return { plan: updated, ...(open ? { openRenewal: { expiresAt: open.expiresAt } } : {}) };
  });
}

/** Who the plan's later invoices are made out to (docs/einvoicing.md#the-buyer); null: the final consumer. */
export async function changeBuyerByCustomer(db: Db, token: string, buyer: PlanBuyer | null, now: Date = new Date()): Promise<PlanRow> {
  const plan = await planOfToken(db, token, now);
  return changePlanBuyer(db, { planId: plan.id, statuses: ['PENDING_ACTIVATION', 'TRIALING', 'ACTIVE', 'PAUSED'], buyer });
}
