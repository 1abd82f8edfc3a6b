import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { coupons, subscriptionPlans } from '../schema';
import type { PlanRow } from './plans';
import { firstRow } from './first-row';
import { newestPage } from './newest-page';

export type CouponRow = typeof coupons.$inferSelect;
export type CouponInput = Omit<typeof coupons.$inferInsert, 'timesRedeemed' | 'deletedAt'>;

export async function insertCoupon(db: Db, values: CouponInput): Promise<CouponRow> {
  const [row] = await db.insert(coupons).values(values).returning();
  return row!;
}

/** A merchant's live coupons, newest first, `limit` at a time after the `before` cursor (an id). */
export function listCouponsOfMerchant(db: Db, { merchantId, limit, before }: { merchantId: string; limit: number; before?: string }) {
  return newestPage(db, coupons, { merchantId, before, limit }, isNull(coupons.deletedAt));
}

/** A coupon of this merchant (deleted ones too), or undefined: the merchant is in the `where`. */
export async function getCouponForMerchant(db: Db, { merchantId, couponId }: { merchantId: string; couponId: string }) {
  return firstRow(db, coupons, and(eq(coupons.id, couponId), eq(coupons.merchantId, merchantId)));
}

/** The merchant's live coupon with this code (codes are kept upper case), or undefined. */
export async function findLiveCouponByCode(db: Db, { merchantId, code }: { merchantId: string; code: string }) {
  return firstRow(db, coupons, and(eq(coupons.merchantId, merchantId), eq(coupons.code, code), isNull(coupons.deletedAt)));
}

/** Deletes a live coupon of this merchant (the row stays for the plans that carry it); undefined when there was none. */
export async function deleteCouponOfMerchant(db: Db, { merchantId, couponId }: { merchantId: string; couponId: string }, now: Date) {
  const [row] = await db
    .update(coupons)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(coupons.id, couponId), eq(coupons.merchantId, merchantId), isNull(coupons.deletedAt)))
    .returning();
  return row;
}

/**
 * Counts one redemption, only while the coupon is live, before its redeem-by date and under its
 * maximum: the condition is in the statement, so of two transactions racing for the last
 * redemption the second re-reads the row the first updated and finds nothing to update.
 * Undefined when the coupon may not be redeemed.
 */
export async function redeemCoupon(db: Db, couponId: string, now: Date): Promise<CouponRow | undefined> {
  const [row] = await db
    .update(coupons)
    .set({ timesRedeemed: sql`${coupons.timesRedeemed} + 1`, updatedAt: now })
    .where(
      and(
        eq(coupons.id, couponId),
        isNull(coupons.deletedAt),
        sql`(${coupons.redeemBy} is null or ${coupons.redeemBy} > ${now.toISOString()})`,
        sql`(${coupons.maxRedemptions} is null or ${coupons.timesRedeemed} < ${coupons.maxRedemptions})`,
      ),
    )
    .returning();
  return row;
}

/** Gives back a redemption (a customer replaced the code they typed before paying). */
export async function releaseRedemption(db: Db, couponId: string, now: Date): Promise<void> {
  await db
    .update(coupons)
    .set({ timesRedeemed: sql`greatest(${coupons.timesRedeemed} - 1, 0)`, updatedAt: now })
    .where(eq(coupons.id, couponId));
}

/** A coupon's terms as a plan keeps them (docs/billing.md#coupons). */
export type PlanDiscount = Pick<PlanRow, 'couponId' | 'discountPercent' | 'discountAmount' | 'discountPeriods'>;

/** Applies a coupon's terms to a plan (its discount starts from its next approved charge). */
export async function setPlanDiscount(db: Db, planId: string, discount: PlanDiscount): Promise<PlanRow> {
  const [row] = await db
    .update(subscriptionPlans)
    .set({ ...discount, discountPeriodsUsed: 0, updatedAt: sql`now()` })
    .where(eq(subscriptionPlans.id, planId))
    .returning();
  return row!;
}

/** One more approved charge carried the plan's discount (under the plan's lock). */
export async function countDiscountedCharge(db: Db, planId: string): Promise<PlanRow> {
  const [row] = await db
    .update(subscriptionPlans)
    .set({ discountPeriodsUsed: sql`${subscriptionPlans.discountPeriodsUsed} + 1` })
    .where(eq(subscriptionPlans.id, planId))
    .returning();
  return row!;
}
