import type { Db } from '@/db/client';
import { getPlanForMerchant, type PlanRow, transitionPlan } from '@/db/queries/plans';
import { lockPlan } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { nextOnAnchor } from '@/lib/billing/calendar';
import { findMerchantPlan } from './find-plan';

// Pause, resume and cancel (DECISIONS 5 and 11, extension endpoints). Each runs under the plan's
// row lock, like every change to a plan's payments, so it cannot interleave with a renewal's
// bookkeeping; a transition section 5 does not list is a 409.

type Scope = { merchantId: string; planId: string };

async function transition(db: Db, scope: Scope, from: readonly PlanRow['status'][], change: (plan: PlanRow) => Parameters<typeof transitionPlan>[3], refused: string) {
  return db.transaction(async (tx) => {
    const found = await findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope));
    const plan = await lockPlan(tx, found.id);
    const moved = from.includes(plan.status) ? await transitionPlan(tx, plan.id, from, change(plan)) : undefined;
    if (!moved) throw new ApiError('conflict', `${refused}: the plan is ${plan.status}`);
    return moved;
  });
}

/** ACTIVE → PAUSED: no renewal is attempted while paused. */
export function pausePlan(db: Db, scope: Scope): Promise<PlanRow> {
  return transition(db, scope, ['ACTIVE'], () => ({ status: 'PAUSED' }), 'Only an ACTIVE plan can be paused');
}

/**
 * PAUSED → ACTIVE, next charge on the first anchor day after today: the paused months are never
 * charged, and a retry the pause interrupted starts over as a new period.
 */
export function resumePlan(db: Db, scope: Scope, now: Date = new Date()): Promise<PlanRow> {
  return transition(
    db,
    scope,
    ['PAUSED'],
    (plan) => ({ status: 'ACTIVE', nextChargeDate: nextOnAnchor(now, plan.billingAnchorDay ?? 1), renewalFailures: 0 }),
    'Only a PAUSED plan can be resumed',
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
  );
}
