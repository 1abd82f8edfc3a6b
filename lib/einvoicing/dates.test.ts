import { describe, expect, it } from 'vitest';
import { bogotaDate, bogotaIssueDateTime, invoicePeriod } from './dates';

describe('bogotaIssueDateTime', () => {
  it('writes the Bogotá date and time with its offset', () => {
    expect(bogotaIssueDateTime(new Date('2026-11-28T15:00:00Z'))).toEqual({ date: '2026-11-28', time: '10:00:00-05:00' });
  });

  it('keeps a charge at 23:30 in Bogotá on its Bogotá day, not UTC\'s next one', () => {
    expect(bogotaIssueDateTime(new Date('2026-11-29T04:30:05Z'))).toEqual({ date: '2026-11-28', time: '23:30:05-05:00' });
  });
});

describe('invoicePeriod', () => {
  it('covers a month up to the day before the next anchor day', () => {
    expect(invoicePeriod(new Date('2026-11-28T15:00:00Z'), { unit: 'month', count: 1 }, 28)).toEqual({ start: '2026-11-28', end: '2026-12-27' });
  });

  it('clamps a 31st anchor to a short month', () => {
    expect(invoicePeriod(new Date('2027-01-31T15:00:00Z'), { unit: 'month', count: 1 }, 31)).toEqual({ start: '2027-01-31', end: '2027-02-27' });
  });

  it('covers a week and a year', () => {
    expect(invoicePeriod(new Date('2026-11-28T15:00:00Z'), { unit: 'week', count: 1 }, null)).toEqual({ start: '2026-11-28', end: '2026-12-04' });
    expect(invoicePeriod(new Date('2026-11-28T15:00:00Z'), { unit: 'year', count: 1 }, 28)).toEqual({ start: '2026-11-28', end: '2027-11-27' });
  });

  it('uses Bogotá days for a charge late in the evening', () => {
    expect(invoicePeriod(new Date('2026-12-01T04:00:00Z'), { unit: 'week', count: 2 }, null)).toEqual({ start: '2026-11-30', end: '2026-12-13' });
  });

  it('covers the day of a SINGLE plan\'s charge', () => {
    expect(invoicePeriod(new Date('2026-11-28T15:00:00Z'), null, null)).toEqual({ start: '2026-11-28', end: '2026-11-28' });
    expect(bogotaDate(new Date('2026-11-28T15:00:00Z'))).toBe('2026-11-28');
  });
});
