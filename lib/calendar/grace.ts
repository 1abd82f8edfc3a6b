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

/**
 * The settings as they apply to a period of `periodMs`: grace at most half the period, and the
 * first e-mail at least a day after the previous period's grace ended. A weekly plan with the
 * defaults (3 and 5) gets 3 days of grace and its e-mail 3 days before the due date; a monthly
 * plan of 28 days or more is never clamped below the settings' own bounds but for graceDays 15 in
 * February (14).
 */
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

/**
 * The reminders after the first e-mail: on the due date and two days before grace ends, each only
 * when it falls after the link was issued and before it expires; the second only when after the
 * first (with two days of grace or less, the due date's reminder is the last one).
 */
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
