import { z } from 'zod';

// What a portal password must be. Length is what matters most (NIST SP 800-63B); the other rules
// only refuse the guesses an attacker tries first.

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

export type PasswordProblem = 'too_short' | 'too_long' | 'one_kind' | 'contains_email';

/** Why this password is refused, or null. */
export function passwordProblem(password: string, email: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN) return 'too_short';
  if (password.length > PASSWORD_MAX) return 'too_long';
  // Only letters or only digits (e.g. "aaaaaaaaaa", "1234567890"): among the first guesses.
  if (/^[A-Za-z]+$/.test(password) || /^\d+$/.test(password) || new Set(password).size < 4) return 'one_kind';
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (local.length >= 4 && password.toLowerCase().includes(local)) return 'contains_email';
  return null;
}

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email()).pipe(z.string().max(254));
