import type { PlanRow } from '@/db/queries/plans';
import { cancelReasonText } from '@/lib/plans/cancel-reason';
import { addInterval, attemptOffsetMs, intervalOf, MAX_RENEWAL_FAILURES, MONTHLY } from './interval';

// Where a renewal outcome moves a plan (docs/billing.md): the next period after an approval, the
// next retry after a failure, or cancellation after the last retry. Shared by the renewal worker
// and the settlement of a renewal that was PENDING (lib/settlement/settle.ts).

export { MAX_RENEWAL_FAILURES } from './interval';

type Scheduled = Pick<PlanRow, 'nextChargeDate' | 'renewalFailures' | 'intervalUnit' | 'intervalCount'>;

/** The due date of the period a plan is collecting. */
export function periodDueOf(plan: Scheduled): Date {
  return new Date(plan.nextChargeDate!.getTime() - attemptOffsetMs(intervalOf(plan), plan.renewalFailures));
}

/**
 * The due date of the period after the one due at `due`: from the due date on the anchor, not from
 * a late retry's or payment's date, so billing does not drift.
 */
export function followingPeriodDue(plan: Pick<PlanRow, 'billingAnchorDay' | 'intervalUnit' | 'intervalCount'>, due: Date): Date {
  return addInterval(due, intervalOf(plan) ?? MONTHLY, plan.billingAnchorDay);
}

/** The plan after a final renewal outcome: next period, next retry, or cancelled. */
export function afterRenewalOutcome(plan: PlanRow, status: 'APPROVED' | 'DECLINED' | 'ERROR', failure: string | null) {
  const due = periodDueOf(plan);
  const interval = intervalOf(plan) ?? MONTHLY;
  if (status === 'APPROVED') return { nextChargeDate: followingPeriodDue(plan, due), renewalFailures: 0 };
  const failures = plan.renewalFailures + 1;
  if (failures > MAX_RENEWAL_FAILURES) {
    return { status: 'CANCELLED' as const, cancelReason: cancelReasonText({ code: 'renewal_failed', attempts: failures, last: failure ?? status }) };
  }
  return { nextChargeDate: new Date(due.getTime() + attemptOffsetMs(interval, failures)), renewalFailures: failures };
}
