import { addMonthsOnAnchor, anchorDayOf, nextOnAnchor } from './calendar';

// A RECURRING plan's billing interval (docs/billing.md#intervals): every `count` weeks, months or
// years. Months and years land on the plan's anchor day (clamped to short months, Bogotá days);
// weeks add 7 × count days. The one place due dates, retries and monthly figures are computed,
// for renewals, settlement, resume, renewal links and the portal alike.

export const INTERVAL_UNITS = ['week', 'month', 'year'] as const;
type IntervalUnit = (typeof INTERVAL_UNITS)[number];

export interface BillingInterval {
  unit: IntervalUnit;
  count: number;
}

/** The largest `count` of each unit (a year at most, or three years). */
export const MAX_INTERVAL_COUNT: Record<IntervalUnit, number> = { week: 52, month: 12, year: 3 };

/** A plan created without `plan.interval`: every month, as every plan of API version 2026-11-20 is. */
export const MONTHLY: BillingInterval = Object.freeze({ unit: 'month', count: 1 });

const DAY_MS = 24 * 60 * 60 * 1000;

/** The interval of a plan row (null for a SINGLE plan, whose columns are null). */
export function intervalOf(plan: { intervalUnit: IntervalUnit | null; intervalCount: number | null }): BillingInterval | null {
  return plan.intervalUnit && plan.intervalCount ? { unit: plan.intervalUnit, count: plan.intervalCount } : null;
}

export function isMonthly(interval: BillingInterval | null): boolean {
  return interval?.unit === 'month' && interval.count === 1;
}

/**
 * The anchor day (1..31) a plan keeps from its first charge at `firstCharge`: the day of the month
 * of months and years. Weeks have none (null); they are counted in days from the due date.
 */
export function anchorFor(interval: BillingInterval, firstCharge: Date): number | null {
  return interval.unit === 'week' ? null : anchorDayOf(firstCharge);
}

/**
 * The due date `periods` intervals after `due` (default 1): the next charge after a period is
 * paid. `anchorDay` is the plan's (months and years); without one, `due`'s own day.
 */
export function addInterval(due: Date, interval: BillingInterval, anchorDay: number | null, periods = 1): Date {
  if (interval.unit === 'week') return new Date(due.getTime() + 7 * interval.count * periods * DAY_MS);
  const months = (interval.unit === 'year' ? 12 : 1) * interval.count * periods;
  return addMonthsOnAnchor(due, months, anchorDay ?? anchorDayOf(due));
}

/**
 * The first due date strictly after `after`'s Bogotá day: where a resumed plan's next charge falls,
 * so no paused period is charged. Months and years: the next anchor day (at `after`'s time of
 * day); weeks: the same weekday as `lastDue`, the plan's last due date, a whole period on from it.
 */
export function nextDueAfter(after: Date, lastDue: Date, interval: BillingInterval, anchorDay: number | null): Date {
  if (interval.unit !== 'week') return nextOnAnchor(after, anchorDay ?? anchorDayOf(lastDue));
  const periodDays = 7 * interval.count;
  const periods = Math.max(1, Math.floor((dayOf(after) - dayOf(lastDue)) / periodDays) + 1);
  return addInterval(lastDue, interval, null, periods);
}

const BOGOTA_OFFSET_MS = -5 * 60 * 60 * 1000;
const dayOf = (date: Date) => Math.floor((date.getTime() + BOGOTA_OFFSET_MS) / DAY_MS);

/** Days after the due date of each attempt: the first, then the three retries. */
const RETRY_OFFSET_DAYS = [0, 1, 3, 5] as const;

/** How many failed attempts a period may have before the plan is cancelled. */
export const MAX_RENEWAL_FAILURES = RETRY_OFFSET_DAYS.length - 1;

/**
 * Milliseconds after the due date of attempt `attempt` (0 = the due date, 1..3 the retries): 1, 3
 * and 5 days, capped to half the period, so a weekly plan's last retry comes before its next week.
 */
export function attemptOffsetMs(interval: BillingInterval | null, attempt: number): number {
  const days = RETRY_OFFSET_DAYS[attempt] ?? 0;
  const halfPeriod = interval?.unit === 'week' ? (7 * interval.count * DAY_MS) / 2 : Infinity;
  return Math.min(days * DAY_MS, halfPeriod);
}

/**
 * What `amount` per interval comes to per month, in whole cents (rounded): weekly × 52 / 12,
 * yearly / 12. The portal's MRR adds these.
 */
export function monthlyAmount(amount: number, interval: BillingInterval): number {
  const perYear = { week: 52, month: 12, year: 1 }[interval.unit] / interval.count;
  return Math.round((amount * perYear) / 12);
}

/**
 * What a price increase applied at once charges (docs/billing.md#price-changes): the difference for
 * the part of the current period, from `nextDue` less one interval to `nextDue`, still ahead at
 * `now`, rounded half up to whole pesos when the difference is whole pesos (Wompi takes only whole
 * pesos, as a coupon's percentage is rounded: lib/coupons/discount.ts#percentOf), else to the cent.
 */
export function proratedDifference(
  difference: number,
  { now, nextDue, interval, anchorDay }: { now: Date; nextDue: Date; interval: BillingInterval; anchorDay: number | null },
): number {
  const start = addInterval(nextDue, interval, anchorDay, -1);
  const period = nextDue.getTime() - start.getTime();
  const share = Math.min(1, Math.max(0, (nextDue.getTime() - now.getTime()) / period));
  return difference % 100 === 0 ? Math.round((difference * share) / 100) * 100 : Math.round(difference * share);
}
