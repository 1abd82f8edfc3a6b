import type { Db } from '@/db/client';
import { uniqueViolation } from '@/db/errors';
import {
  type CouponRow,
  deleteCouponOfMerchant,
  findLiveCouponByCode,
  getCouponForMerchant,
  insertCoupon,
  listCouponsOfMerchant,
  redeemCoupon,
} from '@/db/queries/coupons';
import { getMerchant } from '@/db/queries/merchants';
import { rowExists } from '@/db/queries/ownership';
import { ApiError } from '@/lib/api/errors';
import { findOwned } from '@/lib/api/ownership';
import { createId, isId } from '@/lib/ids';
import { WOMPI_MIN_AMOUNT } from '@/lib/processors/wompi/amounts';
import { MIN_CHARGE, rawDiscount, termsOf } from './discount';
import type { CouponView, CreateCouponBody } from './schemas';

// A merchant's coupons (docs/billing.md#coupons), redeemed at link creation or by a code on the
// hosted page; a redemption is one conditional UPDATE, so the last goes to exactly one plan.

export function toCouponView(coupon: CouponRow): CouponView {
  return {
    id: coupon.id,
    code: coupon.code,
    percentOff: coupon.percentOff,
    amountOff: coupon.amountOff,
    duration: coupon.duration,
    durationInPeriods: coupon.durationInPeriods,
    maxRedemptions: coupon.maxRedemptions,
    timesRedeemed: coupon.timesRedeemed,
    redeemBy: coupon.redeemBy?.toISOString() ?? null,
    deleted: coupon.deletedAt !== null,
    createdAt: coupon.createdAt.toISOString(),
  };
}

/** A new coupon; a live coupon with the same code is a 409. A redeem-by date already past is a 400. */
export async function createCoupon(db: Db, merchantId: string, body: CreateCouponBody, now: Date = new Date()): Promise<CouponView> {
  const redeemBy = body.redeemBy === undefined ? null : new Date(body.redeemBy);
  if (redeemBy && redeemBy <= now) {
    throw new ApiError('invalid_request', 'redeemBy must be in the future', { details: [{ path: 'redeemBy', message: 'must be in the future' }] });
  }
  try {
    const coupon = await insertCoupon(db, {
      id: createId('cpn', now.getTime()),
      merchantId,
      code: body.code ?? null,
      percentOff: body.percentOff ?? null,
      amountOff: body.amountOff ?? null,
      duration: body.duration,
      durationInPeriods: body.durationInPeriods ?? null,
      maxRedemptions: body.maxRedemptions ?? null,
      redeemBy,
      createdAt: now,
      updatedAt: now,
    });
    return toCouponView(coupon);
  } catch (error) {
    if (uniqueViolation(error) === 'coupons_merchant_code_key') throw new ApiError('conflict', `A live coupon with the code ${body.code} already exists`);
    throw error;
  }
}

export async function listCoupons(db: Db, merchantId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await listCouponsOfMerchant(db, { merchantId, limit: limit + 1, before: cursor });
  const page = rows.slice(0, limit);
  return { data: page.map(toCouponView), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** Deletes a coupon: 404 unknown or already deleted, 403 another merchant's. Plans that have it keep it. */
export async function deleteCoupon(db: Db, merchantId: string, couponId: string, now: Date = new Date()): Promise<CouponView> {
  await findOwned(db, 'cpn', couponId, () => getCouponForMerchant(db, { merchantId, couponId }));
  const deleted = await deleteCouponOfMerchant(db, { merchantId, couponId }, now);
  if (!deleted) throw new ApiError('not_found', 'No coupon with this id (it was deleted)');
  return toCouponView(deleted);
}

/** Why a coupon cannot be redeemed now, in words for a developer. */
function whyNotRedeemable(coupon: CouponRow, now: Date): string {
  if (coupon.deletedAt) return 'was deleted';
  if (coupon.redeemBy && coupon.redeemBy <= now) return 'has expired (its redeemBy date has passed)';
  return 'has been redeemed its maxRedemptions times';
}

/** The smallest charge the merchant's processor takes. */
async function minimumCharge(db: Db, merchantId: string): Promise<number> {
  return (await getMerchant(db, merchantId))?.processorType === 'wompi' ? WOMPI_MIN_AMOUNT : MIN_CHARGE;
}

export type CouponProblem = 'unknown' | 'other_merchant' | 'deleted' | 'expired' | 'exhausted' | 'below_minimum';

/** A coupon that may not be applied, with why (the hosted page words it for the customer). */
export class CouponRefused extends ApiError {
  constructor(
    readonly problem: CouponProblem,
    field: string,
    message: string,
  ) {
    super('invalid_request', `${field} ${message}`, { details: [{ path: field, message }] });
  }
}

/** Redeems the coupon `ref` names for a plan in the caller's transaction; a 400 naming `field` for any it cannot. */
export async function redeemForPlan(
  tx: Db,
  { merchantId, ref, amount, field, now }: { merchantId: string; ref: string; amount: number; field: string; now: Date },
) {
  const byId = isId('cpn', ref);
  const coupon = byId ? await getCouponForMerchant(tx, { merchantId, couponId: ref }) : await findLiveCouponByCode(tx, { merchantId, code: ref.toUpperCase() });
  if (!coupon) {
    if (byId && (await rowExists(tx, 'cpn', ref))) throw new CouponRefused('other_merchant', field, 'is a coupon of another account');
    throw new CouponRefused('unknown', field, byId ? 'is not a coupon of this account' : 'is not a code of a live coupon');
  }
  const minimum = await minimumCharge(tx, merchantId);
  if (amount - rawDiscount({ discountPercent: coupon.percentOff, discountAmount: coupon.amountOff }, amount) < minimum) {
    throw new CouponRefused('below_minimum', field, `would bring the charge below the minimum the processor takes (${minimum} cents)`);
  }
  const redeemed = await redeemCoupon(tx, coupon.id, now);
  if (!redeemed) {
    const problem = coupon.deletedAt ? 'deleted' : coupon.redeemBy && coupon.redeemBy <= now ? 'expired' : 'exhausted';
    throw new CouponRefused(problem, field, whyNotRedeemable(coupon, now));
  }
  return { coupon: redeemed, terms: termsOf(redeemed) };
}
