import type { PlanRow } from '@/db/queries/plans';
import { cancelReasonText } from '@/lib/cancel-reason';
import { addInterval, attemptOffsetMs, intervalOf, MAX_RENEWAL_FAILURES, MONTHLY } from './interval';
import { anchorDayOf, daysBetween, nextOnAnchor } from './calendar';

// Where a renewal outcome moves a plan (docs/billing.md): the next period after an approval, the
// next retry after a failure, or cancellation after the last retry. Shared by the renewal worker
// and the settlement of a renewal that was PENDING (lib/settlement/settle.ts).

export { MAX_RENEWAL_FAILURES } from './interval';

type Scheduled = Pick<PlanRow, 'nextChargeDate' | 'renewalFailures' | 'intervalUnit' | 'intervalCount'>;

/** The due date of the period a plan is collecting. */
export function periodDueOf(plan: Scheduled): Date {
  return new Date(plan.nextChargeDate!.getTime() - attemptOffsetMs(intervalOf(plan), plan.renewalFailures));
}

type Scheduling = Pick<PlanRow, 'amount' | 'quantity' | 'description' | 'scheduledAmount' | 'scheduledQuantity' | 'scheduledDescription' | 'scheduledFrom'>;

/** What a plan's fixed part takes per charge (docs/billing.md#quantity): the unit price times the seats. */
export function listAmountOf(plan: Pick<PlanRow, 'amount' | 'quantity'>): number {
  return plan.amount * plan.quantity;
}

/** A scheduled price change (docs/billing.md#price-changes) that the period due at `due` is charged with. */
function scheduledFor(plan: Scheduling, due: Date): boolean {
  return plan.scheduledAmount !== null && plan.scheduledFrom !== null && due.getTime() >= plan.scheduledFrom.getTime();
}

/** The unit price and seats the period due at `due` is charged with: the plan's, or a change scheduled from then. */
export function pricingForPeriod(plan: Scheduling, due: Date): { unitAmount: number; quantity: number } {
  if (!scheduledFor(plan, due)) return { unitAmount: plan.amount, quantity: plan.quantity };
  return { unitAmount: plan.scheduledAmount!, quantity: plan.scheduledQuantity ?? plan.quantity };
}

/** What the renewal of the period due at `due` charges for its fixed part: unit × seats, as scheduled for then. */
export function amountForPeriod(plan: Scheduling, due: Date): number {
  const { unitAmount, quantity } = pricingForPeriod(plan, due);
  return unitAmount * quantity;
}

/** The plan's new price once a period charged with it is paid. */
export function applyScheduled(plan: Scheduling, due: Date) {
  if (!scheduledFor(plan, due)) return {};
  return {
    amount: plan.scheduledAmount!,
    quantity: plan.scheduledQuantity ?? plan.quantity,
    description: plan.scheduledDescription ?? plan.description,
    scheduledAmount: null,
    scheduledQuantity: null,
    scheduledDescription: null,
    scheduledFrom: null,
  };
}

/** The due date of the next period, from the anchor rather than a late payment, so billing does not drift. */
export function followingPeriodDue(plan: Pick<PlanRow, 'billingAnchorDay' | 'intervalUnit' | 'intervalCount'>, due: Date): Date {
  return addInterval(due, intervalOf(plan) ?? MONTHLY, plan.billingAnchorDay);
}

/**
 * A billing day's first period (docs/billing.md#billing-day): from `start` to the first billing day
 * after it, and its share of a full period in Bogotá days; null without a billing day or on it.
 */
export function firstPeriodOf(plan: Pick<PlanRow, 'billingDay' | 'intervalUnit' | 'intervalCount'>, start: Date): { end: Date; share: number } | null {
  const interval = intervalOf(plan);
  if (!plan.billingDay || !interval || anchorDayOf(start) === plan.billingDay) return null;
  const end = nextOnAnchor(start, plan.billingDay);
  return { end, share: daysBetween(start, end) / daysBetween(addInterval(end, interval, plan.billingDay, -1), end) };
}

/** When a minimum term (docs/billing.md#minimum-term) whose first period starts at `start` ends; null without one. */
export function termEndFrom(plan: Pick<PlanRow, 'minimumPeriods' | 'intervalUnit' | 'intervalCount'>, start: Date, anchorDay: number | null): Date | null {
  const interval = intervalOf(plan);
  return plan.minimumPeriods && interval ? addInterval(start, interval, anchorDay, plan.minimumPeriods) : null;
}

/** The end of a minimum term still running at `now`, which a cancel waits for; else null. */
export function termEndOf(plan: Pick<PlanRow, 'termEndsAt'>, now: Date): Date | null {
  return plan.termEndsAt && plan.termEndsAt > now ? plan.termEndsAt : null;
}

/** The plan after a final renewal outcome (a trial's end too): next period, next retry, or cancelled. */
export function afterRenewalOutcome(plan: PlanRow, status: 'APPROVED' | 'DECLINED' | 'ERROR', failure: string | null) {
  const due = periodDueOf(plan);
  const interval = intervalOf(plan) ?? MONTHLY;
  if (status === 'APPROVED') {
    const activated = plan.status === 'TRIALING' ? { status: 'ACTIVE' as const, trialNoticeAt: null, termEndsAt: termEndFrom(plan, due, plan.billingAnchorDay) } : {};
    return { nextChargeDate: followingPeriodDue(plan, due), renewalFailures: 0, ...applyScheduled(plan, due), ...activated };
  }
  const failures = plan.renewalFailures + 1;
  if (failures > MAX_RENEWAL_FAILURES) {
    return { status: 'CANCELLED' as const, cancelReason: cancelReasonText({ code: 'renewal_failed', attempts: failures, last: failure ?? status }) };
  }
  return { nextChargeDate: new Date(due.getTime() + attemptOffsetMs(interval, failures)), renewalFailures: failures };
}

/** Null when no charge is scheduled (docs/api.md#plan-status: any number there would be a false date). */
export function nextChargeDateOf(plan: Pick<PlanRow, 'status' | 'nextChargeDate'>): number | null {
  const scheduled = plan.status === 'PENDING_ACTIVATION' || plan.status === 'TRIALING' || plan.status === 'ACTIVE';
  return scheduled && plan.nextChargeDate ? plan.nextChargeDate.getTime() : null;
}
