// Monthly renewal dates (docs/billing.md): one calendar month after the previous charge, on the
// plan's anchor day, clamped to the month's last day (Jan 31 → Feb 28/29 → Mar 31). Days are
// Colombian days: Bogotá is UTC−5 all year (no daylight saving since 1993).

const BOGOTA_OFFSET_MS = -5 * 60 * 60 * 1000;

/** The day of the month (1..31) of `date` in Bogotá. */
export function anchorDayOf(date: Date): number {
  return new Date(date.getTime() + BOGOTA_OFFSET_MS).getUTCDate();
}

/** `date` moved `months` calendar months on, landing on `anchorDay` (clamped), same time of day in Bogotá. */
export function addMonthsOnAnchor(date: Date, months: number, anchorDay: number): Date {
  const local = new Date(date.getTime() + BOGOTA_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const moved = Date.UTC(
    year,
    month,
    Math.min(anchorDay, lastDay),
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
    local.getUTCMilliseconds(),
  );
  return new Date(moved - BOGOTA_OFFSET_MS);
}

/** The first anchor day after `after`'s Bogotá day: a resumed plan's next charge, no paused month charged. */
export function nextOnAnchor(after: Date, anchorDay: number): Date {
  const thisMonth = addMonthsOnAnchor(after, 0, anchorDay);
  return anchorDayOf(thisMonth) > anchorDayOf(after) ? thisMonth : addMonthsOnAnchor(after, 1, anchorDay);
}

/** Bogotá calendar days from `from`'s day to `to`'s. */
export function daysBetween(from: Date, to: Date): number {
  const day = (date: Date) => Math.floor((date.getTime() + BOGOTA_OFFSET_MS) / 86_400_000);
  return day(to) - day(from);
}
