import { describe, expect, it } from 'vitest';
import { nitCheckDigit, readNit } from './nit';

describe('nitCheckDigit', () => {
  it('gives the check digits NITs are published with', () => {
    // Alegra's sandbox NIT (Alegra's e-provider docs) and DIAN's own, as printed on its documents.
    expect(nitCheckDigit('900559088')).toBe(2);
    expect(nitCheckDigit('800197268')).toBe(4);
  });

  it('refuses anything but 1 to 15 digits', () => {
    expect(() => nitCheckDigit('900559088-2')).toThrow();
    expect(() => nitCheckDigit('')).toThrow();
    expect(() => nitCheckDigit('1234567890123456')).toThrow();
  });
});

describe('readNit', () => {
  it('reads a NIT with or without its digit, dots and spaces', () => {
    expect(readNit('900559088')).toEqual({ ok: true, number: '900559088', dv: 2 });
    expect(readNit('900559088-2')).toEqual({ ok: true, number: '900559088', dv: 2 });
    expect(readNit(' 900.559.088 - 2 ')).toEqual({ ok: true, number: '900559088', dv: 2 });
  });

  it('refuses a wrong check digit, saying the right one', () => {
    expect(readNit('900559088-3')).toEqual({ ok: false, reason: 'check_digit', expected: 2 });
  });

  it.each(['', 'abc', '9005-59088', '900559088-', '900559088-22', '0900559088', '1234', '222222222222222222'])('refuses "%s"', (raw) => {
    expect(readNit(raw)).toMatchObject({ ok: false, reason: 'format' });
  });
});
