import type { Db } from '@/db/client';
import { getPlanForMerchant, type PlanRow, transitionPlan } from '@/db/queries/plans';
import { lockPlan } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { intervalOf, MONTHLY, nextDueAfter } from '@/lib/billing/interval';
import { closeOpenRenewalLink } from '@/lib/billing/renewal-links';
import { periodDueOf } from '@/lib/billing/schedule';
import { notePlanChange } from '@/lib/customers/notices';
import { inTransaction } from '@/lib/unit-of-work';
import type { LifecycleEventType } from '@/lib/webhooks/payload';
import { findMerchantPlan } from './find-plan';

// Pause, resume and cancel (docs/states.md, docs/billing.md, extension endpoints). Each runs under the plan's
// row lock, like every change to a plan's payments, so it cannot interleave with a renewal's
// bookkeeping; a transition section 5 does not list is a 409.

type Scope = { merchantId: string; planId: string };

type Change = Parameters<typeof transitionPlan>[3];

/**
 * One transition under the plan's lock, with its lifecycle event and e-mail in the same database
 * transaction (docs/customers.md), delivered after commit. `find` locates the plan (the
 * merchant's scope, or the customer's manage link).
 */
export async function transitionWithNotices(
  db: Db,
  find: (tx: Db) => Promise<PlanRow>,
  { from, change, refused, event }: { from: readonly PlanRow['status'][]; change: (plan: PlanRow) => Change; refused: string; event: LifecycleEventType },
  now: Date = new Date(),
): Promise<PlanRow> {
  return inTransaction(db, async (tx, outbox) => {
    const plan = await lockPlan(tx, (await find(tx)).id);
    const moved = from.includes(plan.status) ? await transitionPlan(tx, plan.id, from, change(plan)) : undefined;
    if (!moved) throw new ApiError('conflict', `${refused}: the plan is ${plan.status}`);
    // An open renewal link no longer takes payments (docs/billing.md#renewal-links): a resumed plan
    // starts a new period, a cancelled one has none.
    if (moved.status === 'PAUSED' || moved.status === 'CANCELLED') {
      await closeOpenRenewalLink(tx, moved.id, moved.status === 'PAUSED' ? 'SUPERSEDED' : 'CANCELLED');
    }
    await notePlanChange(tx, outbox, moved, event, now);
    return moved;
  });
}

function transition(db: Db, scope: Scope, from: readonly PlanRow['status'][], change: (plan: PlanRow) => Change, refused: string, event: LifecycleEventType) {
  return transitionWithNotices(db, (tx) => findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope)), { from, change, refused, event });
}

/** ACTIVE → PAUSED: no renewal is attempted while paused. */
export function pausePlan(db: Db, scope: Scope): Promise<PlanRow> {
  return transition(db, scope, ['ACTIVE'], () => ({ status: 'PAUSED' }), 'Only an ACTIVE plan can be paused', 'subscription.paused');
}

/**
 * PAUSED → ACTIVE, next charge on the plan's first due day after today (the anchor day, or the
 * weekday of a weekly plan): the paused periods are never charged, and a retry the pause
 * interrupted starts over as a new period.
 */
export function resumePlan(db: Db, scope: Scope, now: Date = new Date()): Promise<PlanRow> {
  return transition(
    db,
    scope,
    ['PAUSED'],
    (plan) => ({
      status: 'ACTIVE',
      nextChargeDate: nextDueAfter(now, plan.nextChargeDate ? periodDueOf(plan) : now, intervalOf(plan) ?? MONTHLY, plan.billingAnchorDay),
      renewalFailures: 0,
    }),
    'Only a PAUSED plan can be resumed',
    'subscription.resumed',
  );
}

export const DEFAULT_CANCEL_REASON = 'Cancelled by the merchant';

/** PENDING_ACTIVATION, ACTIVE or PAUSED → CANCELLED: the link no longer takes payments, no renewal follows. */
export function cancelPlan(db: Db, scope: Scope, reason?: string): Promise<PlanRow> {
  return transition(
    db,
    scope,
    ['PENDING_ACTIVATION', 'ACTIVE', 'PAUSED'],
    () => ({ status: 'CANCELLED', cancelReason: reason ?? DEFAULT_CANCEL_REASON }),
    'This plan cannot be cancelled',
    'subscription.cancelled',
  );
}
