import type { PlanRow } from '@/db/queries/plans';
import { addMonthsOnAnchor, anchorDayOf } from './calendar';

// Where a renewal outcome moves a plan (docs/billing.md): the next period after an approval, the
// next retry after a failure, or cancellation after the last retry. Shared by the renewal worker
// and the settlement of a renewal that was PENDING (lib/settlement/settle.ts).

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days after the due date of each attempt: the first, then the retries of docs/billing.md. */
export const ATTEMPT_OFFSET_DAYS = [0, 1, 3, 5] as const;
export const MAX_RENEWAL_FAILURES = ATTEMPT_OFFSET_DAYS.length - 1;

/** The due date of the period a plan is collecting. */
export function periodDueOf(plan: Pick<PlanRow, 'nextChargeDate' | 'renewalFailures'>): Date {
  const offset = ATTEMPT_OFFSET_DAYS[plan.renewalFailures] ?? 0;
  return new Date(plan.nextChargeDate!.getTime() - offset * DAY_MS);
}

/**
 * The due date of the period after the one due at `due`: from the due date on the anchor, not from
 * a late retry's or payment's date, so billing does not drift.
 */
export function followingPeriodDue(plan: Pick<PlanRow, 'billingAnchorDay'>, due: Date): Date {
  return addMonthsOnAnchor(due, 1, plan.billingAnchorDay ?? anchorDayOf(due));
}

/** The plan after a final renewal outcome: next period, next retry, or cancelled. */
export function afterRenewalOutcome(plan: PlanRow, status: 'APPROVED' | 'DECLINED' | 'ERROR', failure: string | null) {
  const due = periodDueOf(plan);
  if (status === 'APPROVED') return { nextChargeDate: followingPeriodDue(plan, due), renewalFailures: 0 };
  const failures = plan.renewalFailures + 1;
  if (failures > MAX_RENEWAL_FAILURES) {
    return { status: 'CANCELLED' as const, cancelReason: `Renewal failed ${failures} times in a row (last: ${failure ?? status})` };
  }
  return { nextChargeDate: new Date(due.getTime() + ATTEMPT_OFFSET_DAYS[failures]! * DAY_MS), renewalFailures: failures };
}
