// When a renewal link is e-mailed, reminded and given up on (docs/billing.md#renewal-links), from
// the merchant's reminderDays and graceDays and the length of the plan's period. Pure: the sweep
// and the settlement store what these say on the link (its expiry and next step).

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The last reminder comes this long before grace ends (docs/billing.md#renewal-links). */
const FINAL_REMINDER_BEFORE_MS = 2 * DAY_MS;

export interface RenewalSettings {
  reminderDays: number;
  graceDays: number;
}

/** The settings for a period of `periodMs`: grace at most half of it, the first e-mail a day after the last grace. */
export function clampRenewalSettings(settings: RenewalSettings, periodMs: number): RenewalSettings {
  const periodDays = Math.max(1, Math.floor(periodMs / DAY_MS));
  const graceDays = Math.min(settings.graceDays, Math.floor(periodDays / 2));
  const reminderDays = Math.max(1, Math.min(settings.reminderDays, periodDays - graceDays - 1));
  return { reminderDays, graceDays };
}

/** When a plan collected by link is e-mailed the link for the period due at `due`. */
export function issueTime(due: Date, settings: RenewalSettings): Date {
  return new Date(due.getTime() - settings.reminderDays * DAY_MS);
}

/** The reminders after the first e-mail: on the due date and two days before grace ends, within the link's life. */
export function reminderTimes(link: { createdAt: Date; period: Date; expiresAt: Date }): Date[] {
  const due = link.period.getTime();
  const final = link.expiresAt.getTime() - FINAL_REMINDER_BEFORE_MS;
  return [due, ...(final > due ? [final] : [])]
    .filter((t) => t > link.createdAt.getTime() && t < link.expiresAt.getTime())
    .map((t) => new Date(t));
}

/** The link's next step after `remindersSent` reminders: the next reminder, or the end of grace. */
export function nextStepAt(link: { createdAt: Date; period: Date; expiresAt: Date }, remindersSent: number): Date {
  return reminderTimes(link)[remindersSent] ?? link.expiresAt;
}
