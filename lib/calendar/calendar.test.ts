import { describe, expect, it } from 'vitest';
import { addMonthsOnAnchor, anchorDayOf, nextOnAnchor } from './calendar';

// 10:00 in Bogotá is 15:00 UTC.
const bogota = (isoDate: string) => new Date(`${isoDate}T15:00:00.000Z`);

describe('addMonthsOnAnchor', () => {
  it.each([
    ['2027-01-31', 1, 31, '2027-02-28'],
    ['2028-01-31', 1, 31, '2028-02-29'],
    ['2028-02-29', 1, 31, '2028-03-31'],
    ['2027-03-31', 1, 31, '2027-04-30'],
    ['2027-12-15', 1, 15, '2028-01-15'],
    ['2027-01-30', 1, 30, '2027-02-28'],
    ['2027-02-28', 1, 30, '2027-03-30'],
  ])('%s + %i month on day %i → %s', (from, months, anchor, to) => {
    expect(addMonthsOnAnchor(bogota(from), months, anchor).toISOString()).toBe(bogota(to).toISOString());
  });

  it('counts days in Bogotá, not UTC', () => {
    // 21:00 on Jan 31 in Bogotá is already Feb 1 in UTC.
    const lateEvening = new Date('2027-02-01T02:00:00.000Z');
    expect(anchorDayOf(lateEvening)).toBe(31);
    expect(addMonthsOnAnchor(lateEvening, 1, 31).toISOString()).toBe('2027-03-01T02:00:00.000Z');
  });
});

describe('nextOnAnchor (resume)', () => {
  it.each([
    ['2027-03-10', 15, '2027-03-15'],
    ['2027-03-15', 15, '2027-04-15'],
    ['2027-03-20', 15, '2027-04-15'],
    ['2028-02-10', 31, '2028-02-29'],
    ['2028-02-29', 31, '2028-03-31'],
    ['2027-12-31', 31, '2028-01-31'],
  ])('after %s on day %i → %s', (from, anchor, to) => {
    expect(nextOnAnchor(bogota(from), anchor).toISOString()).toBe(bogota(to).toISOString());
  });
});
