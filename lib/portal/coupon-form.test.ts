import { describe, expect, it } from 'vitest';
import { couponBodyOf } from './coupon-form';

// The portal's coupon form as the API's body (docs/portal.md#coupons).
describe('couponBodyOf', () => {
  it('sends whole pesos as cents, a percentage as it is, and the redeem-by day to its end in Bogotá', () => {
    expect(couponBodyOf({ code: 'x10', kind: 'amount', value: '5.000', duration: 'forever', periods: '4', maxRedemptions: '', redeemBy: '2027-01-31' })).toEqual({
      code: 'x10',
      amountOff: 500_000,
      duration: 'forever',
      redeemBy: '2027-01-31T23:59:59-05:00',
    });
    expect(couponBodyOf({ code: '', kind: 'percent', value: '20', duration: 'repeating', periods: '3', maxRedemptions: '50', redeemBy: '' })).toEqual({
      percentOff: 20,
      duration: 'repeating',
      durationInPeriods: 3,
      maxRedemptions: 50,
    });
  });

  it('passes what is not a whole number on as typed, for the schema to refuse by name', () => {
    expect(couponBodyOf({ kind: 'percent', value: '12,5', duration: 'once' })).toMatchObject({ percentOff: '12,5' });
    expect(couponBodyOf({ kind: 'amount', value: 'mucho', duration: 'once' })).toMatchObject({ amountOff: 'mucho' });
  });
});
