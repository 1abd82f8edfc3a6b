import { addMonthsOnAnchor, anchorDayOf, nextOnAnchor } from './calendar';

// A RECURRING plan's billing interval (docs/billing.md#intervals): the one place due dates,
// retries and monthly figures are computed. Months and years land on the anchor day (Bogotá).

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

/** The anchor day (1..31) of months and years; weeks have none. */
export function anchorFor(interval: BillingInterval, firstCharge: Date): number | null {
  return interval.unit === 'week' ? null : anchorDayOf(firstCharge);
}

/** The due date `periods` intervals after `due`, on `anchorDay` (else `due`'s own day). */
export function addInterval(due: Date, interval: BillingInterval, anchorDay: number | null, periods = 1): Date {
  if (interval.unit === 'week') return new Date(due.getTime() + 7 * interval.count * periods * DAY_MS);
  const months = (interval.unit === 'year' ? 12 : 1) * interval.count * periods;
  return addMonthsOnAnchor(due, months, anchorDay ?? anchorDayOf(due));
}

/** The first due date after `after`'s Bogotá day: a resumed plan's next charge, no paused period charged. */
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

/** Milliseconds from the due date to attempt `attempt`: 1, 3 and 5 days, capped to half the period. */
export function attemptOffsetMs(interval: BillingInterval | null, attempt: number): number {
  const days = RETRY_OFFSET_DAYS[attempt] ?? 0;
  const halfPeriod = interval?.unit === 'week' ? (7 * interval.count * DAY_MS) / 2 : Infinity;
  return Math.min(days * DAY_MS, halfPeriod);
}

/** `amount` per interval as whole cents a month (for MRR). */
export function monthlyAmount(amount: number, interval: BillingInterval): number {
  const perYear = { week: 52, month: 12, year: 1 }[interval.unit] / interval.count;
  return Math.round((amount * perYear) / 12);
}

/**
 * What a price increase applied at once charges (docs/billing.md#price-changes): the difference for
 * what is left of the period, in whole pesos when the difference is (Wompi's rule), else cents.
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
