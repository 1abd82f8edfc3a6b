import type { PlanRow } from '@/db/queries/plans';
import type { CouponRow } from '@/db/queries/coupons';

// What a coupon takes off a charge (docs/billing.md#coupons). Pure: the plan carries the coupon's
// terms as applied, and every charge attempt (lib/settlement/attempt.ts) asks here what its
// discount is, so the first payment, renewals, renewal links and a trial's end agree.

/** The smallest charge there is: plan.amount's minimum (lib/plans/schemas.ts MIN_AMOUNT). */
export const MIN_CHARGE = 100;

export type DiscountTerms = Pick<PlanRow, 'discountPercent' | 'discountAmount' | 'discountPeriods' | 'discountPeriodsUsed'>;

/** A coupon's terms as a plan keeps them: `discountPeriods` null means every charge. */
export function termsOf(coupon: Pick<CouponRow, 'id' | 'percentOff' | 'amountOff' | 'duration' | 'durationInPeriods'>) {
  return {
    couponId: coupon.id,
    discountPercent: coupon.percentOff,
    discountAmount: coupon.amountOff,
    discountPeriods: coupon.duration === 'once' ? 1 : coupon.duration === 'repeating' ? coupon.durationInPeriods : null,
  };
}

/** `percent` % of `amount`, rounded half up, to whole pesos when the amount is (Wompi's rule). */
export function percentOf(amount: number, percent: number): number {
  return amount % 100 === 0 ? Math.round((amount * percent) / 10_000) * 100 : Math.round((amount * percent) / 100);
}

/** The full discount of these terms on `amount`, floor aside: what applying the coupon is checked with. */
export function rawDiscount(terms: Pick<DiscountTerms, 'discountPercent' | 'discountAmount'>, amount: number): number {
  if (terms.discountPercent !== null) return percentOf(amount, terms.discountPercent);
  if (terms.discountAmount !== null) return Math.min(terms.discountAmount, amount);
  return 0;
}

/** Whether the next approved charge still carries the discount. */
export function discountActive(terms: DiscountTerms): boolean {
  if (terms.discountPercent === null && terms.discountAmount === null) return false;
  return terms.discountPeriods === null || terms.discountPeriodsUsed < terms.discountPeriods;
}

/** The discount of the next charge: none once its periods are used, never below MIN_CHARGE. */
export function discountFor(terms: DiscountTerms, amount: number): number {
  if (!discountActive(terms)) return 0;
  return Math.max(0, Math.min(rawDiscount(terms, amount), amount - MIN_CHARGE));
}

/** A list-price charge with the plan's discount taken off (a proration keeps none). */
export function withDiscount<C extends { kind: string; amount: number; discount?: number }>(terms: DiscountTerms, charge: C): C {
  if (charge.kind === 'PRORATION' || charge.discount !== undefined) return charge;
  const discount = discountFor(terms, charge.amount);
  return discount > 0 ? { ...charge, amount: charge.amount - discount, discount } : charge;
}

/** What a free trial's end charges, and the list price: charged once a discount that ends is used up, or that one that never ends comes off. */
export function trialCharges(terms: DiscountTerms, amount: number): { amount: number; later?: number; listAmount?: number } {
  const charges = chargesOf(terms, amount);
  if (charges.discount === 0) return { amount: charges.now };
  return charges.later !== null ? { amount: charges.now, later: charges.later } : { amount: charges.now, listAmount: amount };
}

/** What the plan charges now and, once the discount ends, later (null while it never ends). */
export function chargesOf(terms: DiscountTerms, amount: number): { now: number; discount: number; later: number | null; discountedCharges: number | null } {
  const discount = discountFor(terms, amount);
  const left = terms.discountPeriods === null ? null : Math.max(0, terms.discountPeriods - terms.discountPeriodsUsed);
  return { now: amount - discount, discount, later: discount > 0 && left === null ? null : amount, discountedCharges: discount > 0 ? left : 0 };
}
