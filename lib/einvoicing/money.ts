// The money of an electronic invoice (docs/einvoicing.md#amounts): prices include IVA, each line's
// net rounded half-even to the cent, the payable total exactly what was paid. Integer cents.

/** IVA of a line: 19 and 5 %, 0 (exempt: an IVA line at 0 %), or excluded (no IVA line at all). */
export type IvaRate = 19 | 5 | 0 | 'excluded';

export const IVA_RATES: readonly IvaRate[] = [19, 5, 0, 'excluded'];

function assertCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of cents, 0 or more (got ${value})`);
}

/** numerator / denominator rounded half to even (banker's rounding), both positive integers. */
function divideHalfEven(numerator: number, denominator: number): number {
  const quotient = Math.floor(numerator / denominator);
  const twiceRest = 2 * (numerator - quotient * denominator);
  if (twiceRest > denominator || (twiceRest === denominator && quotient % 2 === 1)) return quotient + 1;
  return quotient;
}

/** A total that includes IVA split into its net and its IVA: net + iva === total. */
export function splitIva(total: number, rate: IvaRate): { net: number; iva: number } {
  assertCents(total, 'total');
  if (rate === 'excluded' || rate === 0) return { net: total, iva: 0 };
  if (total * 100 > Number.MAX_SAFE_INTEGER) throw new RangeError(`total ${total} is too large`);
  const net = divideHalfEven(total * 100, 100 + rate);
  return { net, iva: total - net };
}

/** One line as the merchant priced it: IVA included, the discount (a coupon) in cents of that price. */
export interface LineInput {
  description: string;
  /** A whole number of units, 1 or more. */
  quantity: number;
  /** Price of one unit, IVA included, in cents. */
  unitPrice: number;
  /** The line's discount, IVA included, in cents (a coupon's discount is a line discount). */
  discount: number;
  iva: IvaRate;
}

/** A line with its amounts: `total` is what was charged for it, `net + iva === total`. */
export interface Line extends LineInput {
  /** quantity × unitPrice − discount, IVA included: what the customer paid for this line. */
  total: number;
  /** The line's taxable base after the discount (DIAN's LineExtensionAmount). */
  net: number;
  iva: IvaRate;
  ivaAmount: number;
  /** The net of quantity × unitPrice before the discount; `listNet − discountNet === net`. */
  listNet: number;
  /** The discount in net terms (DIAN's line AllowanceCharge). */
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
  // The split is monotone, so the list price's net is never below the discounted net.
  const listNet = splitIva(gross, input.iva).net;
  return { ...input, total, net, ivaAmount: iva, listNet, discountNet: listNet - net };
}

/** The net price of one unit of a line (its list net over its quantity, half-even to the cent). */
export function unitNetOf(line: Line): number {
  return line.quantity === 1 ? line.listNet : divideHalfEven(line.listNet, line.quantity);
}

/** The document's totals, each the sum of its lines' (no document-level rounding). */
export interface Totals {
  /** Σ net: DIAN's LineExtensionAmount (ValFac). */
  lineExtension: number;
  /** Σ net of the lines that carry IVA (0 % included, excluded lines not). */
  taxable: number;
  /** Σ IVA (ValImp1). */
  iva: number;
  /** Σ discountNet. */
  discount: number;
  /** Σ total: what was charged (PayableAmount, ValTot). */
  payable: number;
  /** IVA per rate that appears, for a document-level TaxTotal per rate. */
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

/** Cents as DIAN writes amounts ("41932.77"). */
export function formatAmount(cents: number): string {
  assertCents(cents, 'amount');
  const pesos = Math.floor(cents / 100);
  return `${pesos}.${String(cents % 100).padStart(2, '0')}`;
}

/** The same amount as a JSON number of pesos with two decimals (Alegra's body). */
export function amountNumber(cents: number): number {
  return Number(formatAmount(cents));
}
