// The buckets of docs/api.md#rate-limits and what both limiters share. Separate from index.ts so the two
// implementations can import it without a cycle.

export type LimitBucket = 'create-link' | 'plan-status' | 'merchant' | 'webhook-listen' | 'checkout-session' | 'sign-in-email' | 'sign-in-ip';

/**
 * Requests per sliding minute, per api_key (per client IP for checkout-session). Portal sign-in
 * attempts are limited per e-mail (guessing one account's password) and per client IP (trying
 * many accounts). `webhook-listen` is `npm run webhooks:listen`'s own (it polls once a second), so
 * a developer's listener never takes from the calls the merchant's backend makes.
 */
export const LIMITS: Record<LimitBucket, number> = {
  'create-link': 60,
  'plan-status': 120,
  merchant: 60,
  'webhook-listen': 120,
  'checkout-session': 60,
  'sign-in-email': 5,
  'sign-in-ip': 30,
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
  limit(bucket: LimitBucket, identifier: string): Promise<LimitResult>;
}

/**
 * When the fixed minute that `now` falls in ends. Upstash's sliding window reports this as its
 * reset, and it bounds the wait of a refused client: at the next minute the previous one's count
 * starts to fade, so a request fits again (given no other traffic).
 */
export function windowEnd(now: number): number {
  return (Math.floor(now / WINDOW_MS) + 1) * WINDOW_MS;
}
