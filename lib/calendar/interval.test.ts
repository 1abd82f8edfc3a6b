import { describe, expect, it } from 'vitest';
import { addInterval, anchorFor, attemptOffsetMs, type BillingInterval, monthlyAmount, MONTHLY, nextDueAfter, proratedDifference } from './interval';

// 10:00 in Bogotá is 15:00 UTC.
const bogota = (isoDate: string) => new Date(`${isoDate}T15:00:00.000Z`);
const DAY = 86_400_000;
const every = (unit: BillingInterval['unit'], count: number): BillingInterval => ({ unit, count });

describe('addInterval', () => {
  it.each([
    [every('week', 1), '2027-01-31', null, '2027-02-07'],
    [every('week', 2), '2027-12-25', null, '2028-01-08'],
    [every('week', 52), '2027-03-01', null, '2028-02-28'],
    [every('month', 1), '2027-01-31', 31, '2027-02-28'],
    [every('month', 3), '2027-11-30', 30, '2028-02-29'],
    [every('month', 12), '2028-02-29', 29, '2029-02-28'],
    [every('year', 1), '2028-02-29', 29, '2029-02-28'],
    [every('year', 1), '2029-02-28', 29, '2030-02-28'],
    [every('year', 3), '2029-02-28', 29, '2032-02-29'],
  ] as const)('%o from %s (anchor %s) → %s', (interval, from, anchor, to) => {
    expect(addInterval(bogota(from), interval, anchor).toISOString()).toBe(bogota(to).toISOString());
  });

  it('counts several periods from the same due date, so months keep their anchor day', () => {
    expect(addInterval(bogota('2027-01-31'), every('month', 1), 31, 2).toISOString()).toBe(bogota('2027-03-31').toISOString());
    expect(addInterval(bogota('2027-01-03'), every('week', 1), null, 3).toISOString()).toBe(bogota('2027-01-24').toISOString());
  });

  it('keeps an anchor for months and years only', () => {
    expect(anchorFor(every('week', 1), bogota('2027-01-31'))).toBeNull();
    expect(anchorFor(every('month', 2), bogota('2027-01-31'))).toBe(31);
    expect(anchorFor(every('year', 1), bogota('2027-01-31'))).toBe(31);
  });
});

describe('attemptOffsetMs: retries 1, 3 and 5 days after the due date, capped to half a weekly period', () => {
  it.each([
    [MONTHLY, [0, 1, 3, 5]],
    [every('year', 1), [0, 1, 3, 5]],
    [every('week', 1), [0, 1, 3, 3.5]],
    [every('week', 2), [0, 1, 3, 5]],
  ] as const)('%o', (interval, days) => {
    expect([0, 1, 2, 3].map((attempt) => attemptOffsetMs(interval, attempt) / DAY)).toEqual(days);
  });
});

describe('nextDueAfter (resume)', () => {
  it('puts a monthly plan on its next anchor day after today', () => {
    expect(nextDueAfter(bogota('2027-03-20'), bogota('2027-02-15'), MONTHLY, 15).toISOString()).toBe(bogota('2027-04-15').toISOString());
  });
  it('puts a weekly plan on its weekday, a whole period after its last due date', () => {
    // Sunday 2027-01-03 was due; resumed on Wednesday 2027-01-20 → Sunday 2027-01-24.
    expect(nextDueAfter(bogota('2027-01-20'), bogota('2027-01-03'), every('week', 1), null).toISOString()).toBe(bogota('2027-01-24').toISOString());
    // Resumed on a due weekday itself: the next one, never today.
    expect(nextDueAfter(bogota('2027-01-24'), bogota('2027-01-03'), every('week', 1), null).toISOString()).toBe(bogota('2027-01-31').toISOString());
    expect(nextDueAfter(bogota('2027-01-20'), bogota('2027-01-03'), every('week', 2), null).toISOString()).toBe(bogota('2027-01-31').toISOString());
  });
});

describe('monthlyAmount (MRR)', () => {
  it.each([
    [100_000, every('week', 1), 433_333],
    [100_000, every('week', 2), 216_667],
    [2_990_000, every('month', 3), 996_667],
    [1_200_000, every('year', 1), 100_000],
    [3_600_000, every('year', 3), 100_000],
    [150_000, MONTHLY, 150_000],
  ] as const)('%i every %o → %i a month', (amount, interval, monthly) => {
    expect(monthlyAmount(amount, interval)).toBe(monthly);
  });
});

describe('proratedDifference', () => {
  it('charges the difference for the part of the period still ahead', () => {
    // A weekly period from Jan 3 to Jan 10, two days in: 5/7 of the difference.
    const weekly = { nextDue: bogota('2027-01-10'), interval: every('week', 1), anchorDay: null };
    expect(proratedDifference(700_000, { ...weekly, now: bogota('2027-01-05') })).toBe(500_000);
    // Whole pesos stay whole pesos (Wompi refuses an amount in cents not ending in 00): $ 714,29 → $ 714.
    expect(proratedDifference(100_000, { ...weekly, now: bogota('2027-01-05') })).toBe(71_400);
    expect(proratedDifference(100_050, { ...weekly, now: bogota('2027-01-05') })).toBe(71_464);
    // A monthly period from Feb 28 to Mar 31 (31 days), on Mar 16: 15/31.
    const monthly = { nextDue: bogota('2027-03-31'), interval: MONTHLY, anchorDay: 31 };
    expect(proratedDifference(310_000, { ...monthly, now: bogota('2027-03-16') })).toBe(150_000);
    expect(proratedDifference(310_000, { ...monthly, now: bogota('2027-04-01') })).toBe(0);
    expect(proratedDifference(310_000, { ...monthly, now: bogota('2027-02-01') })).toBe(310_000);
  });
});
