// Card fields as the checkout form sends them, checked in the browser and again on the server. The
// number never leaves memory: callers keep brand and last4.

export type CardField = 'cardNumber' | 'cardExpiry' | 'cardCvc' | 'cardHolder';
export type CardProblem = 'required' | 'invalid_number' | 'invalid_expiry' | 'expired' | 'invalid_cvc' | 'invalid_holder' | 'short_holder';

/** Wompi refuses a card holder shorter than this at tokenization (a one-word name like "Ana"). */
export const WOMPI_MIN_HOLDER = 5;

export interface CardRules {
  /** WOMPI_MIN_HOLDER with Wompi; the sandbox takes any. */
  minHolder?: number;
}

export interface CardInput {
  cardNumber: string;
  cardExpiry: string;
  cardCvc: string;
  cardHolder: string;
}

export interface Card {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  holder: string;
  brand: CardBrand;
  last4: string;
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'diners' | 'unknown';

function digitsOf(value: string): string {
  return value.replace(/[\s-]/g, '');
}

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function brandOf(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^3(0[0-5]|[689])/.test(digits)) return 'diners';
  return 'unknown';
}

/** MM/YY (also M/YY, MM/YYYY, MMYY), or null. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

function isExpired(expiry: { month: number; year: number }, now: Date): boolean {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  return expiry.year * 12 + expiry.month < current;
}

/** Every problem, field by field; empty means the card can be sent. */
export function cardProblems(input: Partial<CardInput>, now: Date = new Date(), rules: CardRules = {}): Partial<Record<CardField, CardProblem>> {
  const problems: Partial<Record<CardField, CardProblem>> = {};
  const digits = digitsOf(input.cardNumber ?? '');
  if (!digits) problems.cardNumber = 'required';
  else if (!luhnValid(digits)) problems.cardNumber = 'invalid_number';

  const expiryText = (input.cardExpiry ?? '').trim();
  const expiry = parseExpiry(expiryText);
  if (!expiryText) problems.cardExpiry = 'required';
  else if (!expiry) problems.cardExpiry = 'invalid_expiry';
  else if (isExpired(expiry, now)) problems.cardExpiry = 'expired';
  else if (expiry.year > now.getUTCFullYear() + 20) problems.cardExpiry = 'invalid_expiry';

  const cvc = (input.cardCvc ?? '').trim();
  if (!cvc) problems.cardCvc = 'required';
  // Any 3-digit CVC (American Express uses 4).
  else if (!(brandOf(digits) === 'amex' ? /^\d{4}$/ : /^\d{3}$/).test(cvc)) problems.cardCvc = 'invalid_cvc';

  const holder = (input.cardHolder ?? '').trim();
  if (!holder) problems.cardHolder = 'required';
  else if (holder.length > 100 || /[\d<>]/.test(holder)) problems.cardHolder = 'invalid_holder';
  else if (holder.replace(/\s+/g, ' ').length < (rules.minHolder ?? 1)) problems.cardHolder = 'short_holder';
  return problems;
}

export function parseCard(input: CardInput, now: Date = new Date(), rules: CardRules = {}): Card | null {
  if (Object.keys(cardProblems(input, now, rules)).length > 0) return null;
  const number = digitsOf(input.cardNumber);
  const expiry = parseExpiry(input.cardExpiry)!;
  return {
    number,
    expMonth: expiry.month,
    expYear: expiry.year,
    cvc: input.cardCvc.trim(),
    holder: input.cardHolder.trim().replace(/\s+/g, ' '),
    brand: brandOf(number),
    last4: number.slice(-4),
  };
}
