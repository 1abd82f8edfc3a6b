import type { Db } from '@/db/client';
import { readCapped } from '@/lib/api/body';
import { ApiError } from '@/lib/api/errors';
import { CouponRefused, type CouponProblem } from '@/lib/coupons/coupons';
import { getRateLimiter } from '@/lib/rate-limit';
import { FORM_TYPE, keptQuery, seeOther } from './card-form';
import { applyPromotionCode, PROMOTION_FIELD } from './promotion-code';
import { firstParam } from '@/lib/search-params';

// The hosted page's coupon-code form (docs/billing.md#coupons): a plain form POST to
// /pay/<token>/promotion-code, with or without JavaScript, answered 303 back to the page with
// `?promotion=` saying what became of the code (never the code itself).

export const PROMOTION_OUTCOMES = ['applied', 'unknown', 'expired', 'exhausted', 'below_minimum', 'unavailable', 'rate_limited'] as const;
export type PromotionOutcome = (typeof PROMOTION_OUTCOMES)[number];

/** How a refused coupon is told to the customer: a deleted or another account's code is simply not valid. */
const OUTCOME_OF: Record<CouponProblem, PromotionOutcome> = {
  unknown: 'unknown',
  other_merchant: 'unknown',
  deleted: 'unknown',
  expired: 'expired',
  exhausted: 'exhausted',
  below_minimum: 'below_minimum',
};

/** The outcome a page shows, read from its query; null for none. */
export function promotionOutcomeOf(value: string | string[] | undefined): PromotionOutcome | null {
  const first = firstParam(value);
  return first && (PROMOTION_OUTCOMES as readonly string[]).includes(first) ? (first as PromotionOutcome) : null;
}

/** Where the form posts: the checkout page's own parameters kept. */
export function promotionFormAction(token: string, query: Record<string, string | string[] | undefined>): string {
  return `/pay/${token}/promotion-code${keptQuery(query)}`;
}

export async function applyPromotionCodeForm(db: Db, { req, token, clientKey }: { req: Request; token: string; clientKey: string }): Promise<Response> {
  const url = new URL(req.url);
  const back = (promotion?: PromotionOutcome) => seeOther(`/pay/${token}${keptQuery(url.searchParams, promotion ? { promotion } : {})}#${PROMOTION_FIELD}`);
  const limited = await getRateLimiter().limit('checkout-session', clientKey);
  if (!limited.success) return back('rate_limited');
  try {
    if (!FORM_TYPE.test(req.headers.get('content-type') ?? '')) return back('unknown');
    const code = new URLSearchParams(await readCapped(req)).get(PROMOTION_FIELD) ?? '';
    await applyPromotionCode(db, { token, code });
    return back('applied');
  } catch (error) {
    if (error instanceof CouponRefused) return back(OUTCOME_OF[error.problem]);
    // Unknown, expired, paid, or a payment under way: the page says which.
    if (error instanceof ApiError) return back(error.code === 'invalid_request' ? 'unavailable' : undefined);
    throw error;
  }
}
