import { describe, expect, it } from 'vitest';
import { formatAmount, priceLine, splitIva, totalsOf } from './money';

describe('splitIva', () => {
  it('splits the known IVA-inclusive examples to the cent', () => {
    expect(splitIva(4_990_000, 19)).toEqual({ net: 4_193_277, iva: 796_723 });
    expect(splitIva(4_000_000, 19)).toEqual({ net: 3_361_345, iva: 638_655 });
    expect(splitIva(8_000_000, 19)).toEqual({ net: 6_722_689, iva: 1_277_311 });
  });

  it('rounds to the nearest cent, down and up', () => {
    // 4 990 000 × 100 / 119 = 4 193 277.31 (down); 4 000 000 × 100 / 119 = 3 361 344.54 (up). An
    // exact half cannot occur at 19 or 5 %: 119 and 105 are odd, so half-even only names the rule.
    expect(splitIva(4_990_000, 19).net).toBe(4_193_277);
    expect(splitIva(4_000_000, 19).net).toBe(3_361_345);
    expect(splitIva(10_499, 5).net).toBe(9_999);
    expect(splitIva(10_501, 5).net).toBe(10_001);
  });

  it('splits at 5 %, and leaves exempt and excluded totals whole', () => {
    expect(splitIva(10_500, 5)).toEqual({ net: 10_000, iva: 500 });
    expect(splitIva(4_990_000, 0)).toEqual({ net: 4_990_000, iva: 0 });
    expect(splitIva(4_990_000, 'excluded')).toEqual({ net: 4_990_000, iva: 0 });
  });

  it('always adds back up to the total', () => {
    for (let total = 0; total < 50_000; total += 97) {
      for (const rate of [19, 5] as const) {
        const { net, iva } = splitIva(total, rate);
        expect(net + iva).toBe(total);
        expect(Math.abs(net * (100 + rate) - total * 100)).toBeLessThanOrEqual((100 + rate) / 2);
      }
    }
  });

  it('refuses fractions of a cent and negative totals', () => {
    expect(() => splitIva(10.5, 19)).toThrow(/whole number of cents/);
    expect(() => splitIva(-100, 19)).toThrow(/whole number of cents/);
  });
});

describe('priceLine', () => {
  it('treats a coupon as a line discount: the net is that of what was charged', () => {
    // A 20 % coupon on a 49 900 plan: 39 920 charged.
    const line = priceLine({ description: 'Plan Pro', quantity: 1, unitPrice: 4_990_000, discount: 998_000, iva: 19 });
    expect(line.total).toBe(3_992_000);
    expect(line.net).toBe(splitIva(3_992_000, 19).net);
    expect(line.net + line.ivaAmount).toBe(3_992_000);
    expect(line.listNet).toBe(4_193_277);
    expect(line.listNet - line.discountNet).toBe(line.net);
  });

  it('multiplies by the quantity before splitting', () => {
    const line = priceLine({ description: 'Seats', quantity: 3, unitPrice: 1_000_000, discount: 0, iva: 19 });
    expect(line.total).toBe(3_000_000);
    expect(line.net).toBe(2_521_008);
  });

  it.each([
    ['a discount above the price', { discount: 5_000_000 }, /discount/],
    ['a quantity of 0', { quantity: 0 }, /quantity/],
    ['a fractional quantity', { quantity: 1.5 }, /quantity/],
    ['a fractional price', { unitPrice: 100.5 }, /unitPrice/],
    ['an unknown rate', { iva: 16 as 19 }, /iva/],
  ])('refuses %s', (_name, change, message) => {
    expect(() => priceLine({ description: 'x', quantity: 1, unitPrice: 4_990_000, discount: 0, iva: 19, ...change })).toThrow(message);
  });
});

describe('totalsOf', () => {
  it('adds lines of several rates, excluded lines outside the taxable base', () => {
    const totals = totalsOf([
      priceLine({ description: 'a', quantity: 1, unitPrice: 4_990_000, discount: 0, iva: 19 }),
      priceLine({ description: 'b', quantity: 1, unitPrice: 10_500, discount: 0, iva: 5 }),
      priceLine({ description: 'c', quantity: 1, unitPrice: 20_000, discount: 0, iva: 0 }),
      priceLine({ description: 'd', quantity: 1, unitPrice: 30_000, discount: 0, iva: 'excluded' }),
    ]);
    expect(totals.payable).toBe(4_990_000 + 10_500 + 20_000 + 30_000);
    expect(totals.iva).toBe(796_723 + 500);
    expect(totals.lineExtension).toBe(4_193_277 + 10_000 + 20_000 + 30_000);
    expect(totals.taxable).toBe(4_193_277 + 10_000 + 20_000);
    expect(totals.lineExtension + totals.iva).toBe(totals.payable);
    expect(totals.ivaByRate).toEqual([
      { rate: 19, taxable: 4_193_277, iva: 796_723 },
      { rate: 5, taxable: 10_000, iva: 500 },
      { rate: 0, taxable: 20_000, iva: 0 },
    ]);
  });
});

describe('formatAmount', () => {
  it('writes two decimals with a dot and no separators', () => {
    expect(formatAmount(4_193_277)).toBe('41932.77');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(178_500_000)).toBe('1785000.00');
  });
});
