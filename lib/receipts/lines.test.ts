import { describe, expect, it } from 'vitest';
import { chargeLines, itemised } from './lines';

// A charge's lines (lib/receipts/lines.ts) add up to what was charged, whatever the charge recorded.

const sum = (lines: { amount: number }[]) => lines.reduce((total, line) => total + line.amount, 0);

describe('chargeLines', () => {
  it('lists seats at their unit price, and the discount taken off', () => {
    const lines = chargeLines({ kind: 'RENEWAL', amount: 4_000_000, discount: 1_000_000, quantity: 5, unitAmount: 1_000_000, setupFee: 0, usageUnits: null, usageAmount: 0 });
    expect(lines).toEqual([
      { kind: 'fixed', quantity: 5, unitAmount: 1_000_000, amount: 5_000_000 },
      { kind: 'discount', amount: -1_000_000 },
    ]);
    expect(sum(lines)).toBe(4_000_000);
    expect(itemised(lines)).toBe(true);
  });

  it('makes one fixed line of a charge recorded without seats (a proration, an older charge)', () => {
    const lines = chargeLines({ kind: 'PRORATION', amount: 350_000, discount: 0, quantity: null, unitAmount: null, setupFee: 0, usageUnits: null, usageAmount: 0 });
    expect(lines).toEqual([{ kind: 'fixed', quantity: 1, unitAmount: 350_000, amount: 350_000 }]);
    expect(itemised(lines)).toBe(false);
  });

  it("gives the setup fee its own line beside the seats, and a trial's fee alone", () => {
    const withFee = chargeLines({ kind: 'INITIAL', amount: 7_500_000, discount: 0, quantity: 5, unitAmount: 1_000_000, setupFee: 2_500_000, usageUnits: null, usageAmount: 0 });
    expect(withFee).toEqual([
      { kind: 'fixed', quantity: 5, unitAmount: 1_000_000, amount: 5_000_000 },
      { kind: 'setup_fee', amount: 2_500_000 },
    ]);
    const trial = chargeLines({ kind: 'SETUP_FEE', amount: 2_500_000, discount: 0, quantity: null, unitAmount: null, setupFee: 2_500_000, usageUnits: null, usageAmount: 0 });
    expect(trial).toEqual([{ kind: 'setup_fee', amount: 2_500_000 }]);
    expect(itemised(trial)).toBe(true);
  });

  it('bills the usage in arrears on a line of its own', () => {
    const lines = chargeLines({ kind: 'RENEWAL', amount: 5_600_000, discount: 0, quantity: 5, unitAmount: 1_000_000, setupFee: 0, usageUnits: 130, usageAmount: 600_000 });
    expect(lines).toEqual([
      { kind: 'fixed', quantity: 5, unitAmount: 1_000_000, amount: 5_000_000 },
      { kind: 'usage', quantity: 130, amount: 600_000 },
    ]);
    expect(sum(lines)).toBe(5_600_000);
  });
});
