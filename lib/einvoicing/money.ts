// Invoice money (docs/einvoicing.md#amounts), integer cents: prices include IVA, each line's net
// rounded half-even, the payable total exactly what was paid.

/** 0 is exempt (an IVA line at 0 %); excluded has no IVA line. */
export type IvaRate = 19 | 5 | 0 | 'excluded';

export const IVA_RATES: readonly IvaRate[] = [19, 5, 0, 'excluded'];

function assertCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of cents, 0 or more (got ${value})`);
}

/** Half to even, both positive integers. */
function divideHalfEven(numerator: number, denominator: number): number {
  const quotient = Math.floor(numerator / denominator);
  const twiceRest = 2 * (numerator - quotient * denominator);
  if (twiceRest > denominator || (twiceRest === denominator && quotient % 2 === 1)) return quotient + 1;
  return quotient;
}

/** net + iva === total. */
export function splitIva(total: number, rate: IvaRate): { net: number; iva: number } {
  assertCents(total, 'total');
  if (rate === 'excluded' || rate === 0) return { net: total, iva: 0 };
  if (total * 100 > Number.MAX_SAFE_INTEGER) throw new RangeError(`total ${total} is too large`);
  const net = divideHalfEven(total * 100, 100 + rate);
  return { net, iva: total - net };
}

/** IVA included; the discount (a coupon) in cents of that price. */
export interface LineInput {
  description: string;
  quantity: number;
  /** IVA included. */
  unitPrice: number;
  /** IVA included. */
  discount: number;
  iva: IvaRate;
}

export interface Line extends LineInput {
  /** What the customer paid for this line. */
  total: number;
  /** DIAN's LineExtensionAmount. */
  net: number;
  iva: IvaRate;
  ivaAmount: number;
  /** `listNet − discountNet === net`. */
  listNet: number;
  /** DIAN's line AllowanceCharge. */
  discountNet: number;
}

export function priceLine(input: LineInput): Line {
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 1) throw new RangeError(`quantity must be a whole number, 1 or more (got ${input.quantity})`);
  assertCents(input.unitPrice, 'unitPrice');
  assertCents(input.discount, 'discount');
  if (!IVA_RATES.includes(input.iva)) throw new RangeError(`iva must be 19, 5, 0 or "excluded" (got ${String(input.iva)})`);
  const gross = input.quantity * input.unitPrice;
  if (input.discount > gross) throw new RangeError(`discount ${input.discount} is more than the line's price ${gross}`);
  const total = gross - input.discount;
  const { net, iva } = splitIva(total, input.iva);
  // The split is monotone: the list net is never below the discounted net.
  const listNet = splitIva(gross, input.iva).net;
  return { ...input, total, net, ivaAmount: iva, listNet, discountNet: listNet - net };
}

export function unitNetOf(line: Line): number {
  return line.quantity === 1 ? line.listNet : divideHalfEven(line.listNet, line.quantity);
}

/** Sums of the lines' (no document-level rounding). */
export interface Totals {
  /** LineExtensionAmount (ValFac). */
  lineExtension: number;
  /** Lines carrying IVA, 0 % included. */
  taxable: number;
  /** ValImp1 */
  iva: number;
  discount: number;
  /** PayableAmount, ValTot. */
  payable: number;
  ivaByRate: { rate: 19 | 5 | 0; taxable: number; iva: number }[];
}

export function totalsOf(lines: readonly Line[]): Totals {
  const byRate = new Map<19 | 5 | 0, { rate: 19 | 5 | 0; taxable: number; iva: number }>();
  let lineExtension = 0;
  let taxable = 0;
  let iva = 0;
  let discount = 0;
  let payable = 0;
  for (const line of lines) {
    lineExtension += line.net;
    iva += line.ivaAmount;
    discount += line.discountNet;
    payable += line.total;
    if (line.iva === 'excluded') continue;
    taxable += line.net;
    const entry = byRate.get(line.iva) ?? { rate: line.iva, taxable: 0, iva: 0 };
    entry.taxable += line.net;
    entry.iva += line.ivaAmount;
    byRate.set(line.iva, entry);
  }
  const ivaByRate = [...byRate.values()].sort((a, b) => b.rate - a.rate);
  return { lineExtension, taxable, iva, discount, payable, ivaByRate };
}

/** As DIAN writes amounts ("41932.77"). */
export function formatAmount(cents: number): string {
  assertCents(cents, 'amount');
  const pesos = Math.floor(cents / 100);
  return `${pesos}.${String(cents % 100).padStart(2, '0')}`;
}

/** Alegra's body. */
export function amountNumber(cents: number): number {
  return Number(formatAmount(cents));
}
