import { describe, expect, it } from 'vitest';
import { formatTaxId, readTaxId } from './tax-id';

// A buyer's document as typed (docs/einvoicing.md#the-buyer): the rules the API's customer.taxId
// and the customer's forms share.

describe('readTaxId', () => {
  it('reads a NIT with or without its check digit, computing it', () => {
    expect(readTaxId('NIT', '900559088')).toEqual({ ok: true, taxId: { type: 'NIT', number: '900559088', dv: 2 } });
    expect(readTaxId('NIT', ' 900.559.088-2 ')).toEqual({ ok: true, taxId: { type: 'NIT', number: '900559088', dv: 2 } });
  });

  it('refuses a wrong check digit, saying the right one', () => {
    expect(readTaxId('NIT', '900559088-7')).toEqual({ ok: false, problem: 'check_digit', expected: 2 });
  });

  it('keeps other documents whole, with no digit cut', () => {
    expect(readTaxId('CC', '1020304050')).toEqual({ ok: true, taxId: { type: 'CC', number: '1020304050', dv: null } });
    expect(readTaxId('PP', 'AB123456')).toEqual({ ok: true, taxId: { type: 'PP', number: 'AB123456', dv: null } });
    expect(readTaxId('CE', '123456')).toEqual({ ok: true, taxId: { type: 'CE', number: '123456', dv: null } });
  });

  it.each([
    ['RUT', '900559088', 'type'],
    ['', '900559088', 'type'],
    ['NIT', '   ', 'required'],
    ['CC', '222222222222', 'final_consumer'],
    ['NIT', '222.222.222.222', 'final_consumer'],
    ['NIT', '12-AB', 'nit'],
    ['CC', '01234', 'cc'],
    ['CC', '1.020.304.050', 'cc'],
    ['PP', 'AB 12', 'document'],
  ])('refuses %s "%s" as %s', (type, number, problem) => {
    expect(readTaxId(type, number)).toMatchObject({ ok: false, problem });
  });
});

describe('formatTaxId', () => {
  it('writes a NIT with its check digit and other documents as they are', () => {
    expect(formatTaxId({ type: 'NIT', number: '900559088', dv: 2 })).toBe('900559088-2');
    expect(formatTaxId({ type: 'CC', number: '1020304050', dv: null })).toBe('1020304050');
  });
});
