// When a failed e-mail is tried again and when it is given up (docs/customers.md#e-mails): read by
// the sender and by the portal's plan page.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The wait after each failed attempt: 30 s up to 8 hours, 30 hours in all (docs/customers.md#e-mails). */
export const EMAIL_RETRY_DELAYS_MS = [
  30_000, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 20 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 6 * HOUR, 8 * HOUR, 8 * HOUR,
] as const;

/** After this many failed attempts the sweeper leaves an e-mail alone (its attempts say why). */
export const MAX_EMAIL_ATTEMPTS = EMAIL_RETRY_DELAYS_MS.length + 1;

/** When an e-mail that has failed `failedAttempts` times is tried again; null once it is given up. */
export function nextEmailAttemptAt(failedAttempts: number, after: Date): Date | null {
  const delay = EMAIL_RETRY_DELAYS_MS[failedAttempts - 1];
  return delay === undefined ? null : new Date(after.getTime() + delay);
}
