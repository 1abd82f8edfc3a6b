import { addInterval, type BillingInterval } from '@/lib/calendar/interval';

// An invoice's dates on the Bogotá clock (UTC−5, no DST), and the days the charge pays for.

const BOGOTA_OFFSET_MS = -5 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');

export function bogotaDate(at: Date): string {
  const local = new Date(at.getTime() + BOGOTA_OFFSET_MS);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
}

/** `2026-11-28` and `10:00:00-05:00`. */
export function bogotaIssueDateTime(at: Date): { date: string; time: string } {
  const local = new Date(at.getTime() + BOGOTA_OFFSET_MS);
  return { date: bogotaDate(at), time: `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}-05:00` };
}

export interface InvoicePeriod {
  start: string;
  end: string;
}

/** By interval and anchor day; a SINGLE plan's is its charge's day. */
export function invoicePeriod(periodStart: Date, interval: BillingInterval | null, anchorDay: number | null): InvoicePeriod {
  if (!interval) return { start: bogotaDate(periodStart), end: bogotaDate(periodStart) };
  const next = addInterval(periodStart, interval, anchorDay);
  return { start: bogotaDate(periodStart), end: bogotaDate(new Date(next.getTime() - DAY_MS)) };
}
