import type { Db } from '@/db/client';
import { listAmountOf } from '@/lib/calendar/schedule';
import { getCouponForMerchant, releaseRedemption, setPlanDiscount } from '@/db/queries/coupons';
import type { PlanRow } from '@/db/queries/plans';
import { lockPlan } from '@/db/queries/plans';
import { getPendingTransaction } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { CouponRefused, redeemForPlan } from '@/lib/coupons/coupons';
import { couponCodeSchema } from '@/lib/coupons/schemas';
import { findCheckoutPlan } from './session';
import { inTransaction } from '@/lib/unit-of-work';

// A coupon code typed on the hosted page (docs/billing.md#coupons), redeemed under the plan's lock
// before any payment; a code typed over another gives the first one's redemption back.

export const PROMOTION_FIELD = 'promotionCode';

export async function applyPromotionCode(db: Db, { token, code, now = new Date() }: { token: string; code: string; now?: Date }): Promise<PlanRow> {
  const parsed = couponCodeSchema.safeParse(code);
  if (!parsed.success) throw new CouponRefused('unknown', PROMOTION_FIELD, parsed.error.issues[0]?.message ?? 'is not a valid code');
  const { plan, link } = await findCheckoutPlan(db, token, now);
  if (link || !plan.allowPromotionCodes) {
    throw new ApiError('invalid_request', 'This link does not take promotion codes', {
      details: [{ path: PROMOTION_FIELD, message: 'this link does not take promotion codes' }],
    });
  }
  return inTransaction(db, async (tx) => {
    const locked = await lockPlan(tx, plan.id);
    if (locked.status !== 'PENDING_ACTIVATION') throw new ApiError('conflict', 'This link has already been paid');
    if (await getPendingTransaction(tx, locked.id)) throw new ApiError('conflict', 'A payment for this link is already in progress');
    if (locked.couponId) {
      const current = await getCouponForMerchant(tx, { merchantId: locked.merchantId, couponId: locked.couponId });
      if (current?.code === parsed.data) return locked;
      await releaseRedemption(tx, locked.couponId, now);
    }
    const { terms } = await redeemForPlan(tx, { merchantId: locked.merchantId, ref: parsed.data, amount: listAmountOf(locked), field: PROMOTION_FIELD, now });
    return setPlanDiscount(tx, locked.id, terms);
  });
}
