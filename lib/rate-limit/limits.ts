// The buckets of docs/api.md#rate-limits and what both limiters share. Separate from index.ts so the two
// implementations can import it without a cycle.

export type LimitBucket =
  | 'create-link'
  | 'plan-status'
  | 'merchant'
  | 'usage'
  | 'webhook-listen'
  | 'checkout-session'
  | 'sign-in-email'
  | 'sign-in-ip'
  | 'sign-up-ip'
  | 'account-email'
  | 'reauth'
  | 'csp-report'
  | 'manage-method'
  | 'manage-method-ip';

/** Per sliding minute: per api_key; per IP for checkout-session and sign-up; sign-in and reset links per e-mail and per IP; password checks per user. */
export const LIMITS: Record<LimitBucket, number> = {
  'create-link': 60,
  'plan-status': 120,
  merchant: 60,
  usage: 10_000,
  'webhook-listen': 120,
  'checkout-session': 60,
  'sign-in-email': 5,
  'sign-in-ip': 30,
  'sign-up-ip': 5,
  'account-email': 5,
  reauth: 5,
  'csp-report': 30,
  'manage-method': 3,
  'manage-method-ip': 10,
};

export const WINDOW_MS = 60_000;

export interface LimitResult {
  success: boolean;
  limit: number;
  /** Requests still allowed in the window, the one just served already counted. */
  remaining: number;
  /** Epoch ms when the window frees up. */
  reset: number;
}

export interface RateLimiter {
  /**
   * Draws `weight` (default 1) from the identifier's minute. Refused once the minute is spent, or
   * when the weight overflows it; an overflowing weight is counted all the same, as
   * @upstash/ratelimit's script counts it.
   */
  limit(bucket: LimitBucket, identifier: string, weight?: number): Promise<LimitResult>;
}

/** The end of `now`'s fixed minute: the sliding window's reset, and the longest a refused client waits. */
export function windowEnd(now: number): number {
  return (Math.floor(now / WINDOW_MS) + 1) * WINDOW_MS;
}
