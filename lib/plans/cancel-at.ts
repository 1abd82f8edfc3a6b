// Cancel at the end of the period (docs/billing.md#cancel-at-the-end-of-the-period) or of a minimum
// term: scheduling it (the merchant's API and portal, the customer's manage page), undoing it, and the sweep's step
// that cancels each plan whose time has come instead of renewing it. Each runs under the plan's
// row lock in one unit of work with its events and e-mails.
import type { Db } from '@/db/client';
import { findPlansEndingBy, getPlanForMerchant, lockPlan, type PlanRow, transitionPlan } from '@/db/queries/plans';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { closeOpenRenewalLinkOfPlan } from '@/db/queries/renewal-links';
import { ApiError } from '@/lib/api/errors';
import { cancelReasonText } from '@/lib/cancel-reason';
import { termEndOf } from '@/lib/calendar/schedule';
import { notePlanChange } from '@/lib/notices';
import { eachDuePlan } from '@/lib/plans/lifecycle';
import { inTransaction } from '@/lib/unit-of-work';
import { recordLifecycleEvent } from '@/lib/webhooks/events';

type Find = (tx: Db) => Promise<PlanRow>;

/**
 * Schedules the cancellation for the plan's next charge date, or the end of a minimum term still
 * running (docs/billing.md#minimum-term): an ACTIVE or TRIALING plan not in its renewal retries, or
 * any open plan in its term. Asked again, it answers the plan as it is. `text` is the merchant's reason.
 */
export function cancelAtPeriodEnd(db: Db, find: Find, { text, now = new Date() }: { text?: string; now?: Date } = {}): Promise<PlanRow> {
  return inTransaction(db, async (tx, outbox) => {
    const plan = await lockPlan(tx, (await find(tx)).id);
    const term = termEndOf(plan, now);
    if (plan.status !== 'ACTIVE' && plan.status !== 'TRIALING' && !(term && plan.status === 'PAUSED')) {
      throw new ApiError('conflict', `Only an ACTIVE or TRIALING plan can be cancelled at the end of its period: the plan is ${plan.status}`);
    }
    if (plan.cancelAt) return plan;
    if (!term && (plan.renewalFailures > 0 || !plan.nextChargeDate || plan.nextChargeDate <= now)) {
      throw new ApiError('conflict', 'The period has ended and its renewal is being collected: cancel now instead');
    }
    const after = (await transitionPlan(tx, plan.id, [plan.status], { cancelAt: term ?? plan.nextChargeDate, cancelReason: text ?? null }))!;
    await recordLifecycleEvent(tx, outbox, after, 'subscription.updated', now, { cancelAt: after.cancelAt!.getTime() });
    return after;
  });
}

/** Whether a scheduled cancellation waits for a minimum term: periods are still charged until then. */
export function chargedUntilCancelled(plan: Pick<PlanRow, 'cancelAt' | 'nextChargeDate'>): boolean {
  return plan.cancelAt !== null && plan.nextChargeDate !== null && plan.cancelAt > plan.nextChargeDate;
}

/** Undoes a scheduled cancellation (PATCH `{ "at": null }`); a plan with none is answered as it is. */
export function undoCancelAt(db: Db, find: Find, now: Date = new Date()): Promise<PlanRow> {
  return inTransaction(db, async (tx, outbox) => {
    const plan = await lockPlan(tx, (await find(tx)).id);
    if (plan.status === 'CANCELLED' || plan.status === 'COMPLETED') {
      throw new ApiError('conflict', `A cancellation can only be undone before it takes effect: the plan is ${plan.status}`);
    }
    if (!plan.cancelAt) return plan;
    const after = (await transitionPlan(tx, plan.id, [plan.status], { cancelAt: null, cancelReason: null }))!;
    await recordLifecycleEvent(tx, outbox, after, 'subscription.updated', now, { cancelAt: null });
    return after;
  });
}

/** The portal's form: schedule, or with `undo` undo, a cancellation of this merchant's plan. */
export function scheduleCancellation(db: Db, scope: { merchantId: string; planId: string }, { undo }: { undo: boolean }): Promise<PlanRow> {
  const find: Find = (tx) => findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope));
  return undo ? undoCancelAt(db, find) : cancelAtPeriodEnd(db, find);
}

/** The period has ended: the plan is cancelled instead of renewed, with its event and e-mail. */
async function endPlan(db: Db, planId: string, now: Date): Promise<boolean> {
  return inTransaction(db, async (tx, outbox) => {
    const before = await lockPlan(tx, planId);
    const open = before.status === 'ACTIVE' || before.status === 'TRIALING' || before.status === 'PAUSED';
    if (!open || !before.cancelAt || before.cancelAt > now) return false;
    const reason = { code: 'period_end', ...(before.cancelReason ? { text: before.cancelReason } : {}) } as const;
    const after = await transitionPlan(tx, planId, [before.status], { status: 'CANCELLED', cancelReason: cancelReasonText(reason) });
    if (!after) return false;
    await closeOpenRenewalLinkOfPlan(tx, planId, 'CANCELLED');
    await notePlanChange(tx, outbox, { before, after }, 'subscription.cancelled', { now, reason });
    return true;
  });
}

/** The sweep's step: every plan whose cancellation is due at `now` (of `merchantId` only, for its test clock). */
export function endScheduledCancellations(db: Db, now: Date, { merchantId, pageSize = 500 }: { merchantId?: string; pageSize?: number } = {}): Promise<string[]> {
  return eachDuePlan((limit) => findPlansEndingBy(db, { now, limit, merchantId }), (id) => endPlan(db, id, now), pageSize);
}
