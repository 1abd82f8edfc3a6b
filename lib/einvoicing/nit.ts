// The NIT's check digit (DIAN's modulo 11) and a NIT read with or without it.

const WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];

export const MAX_NIT_DIGITS = WEIGHTS.length;

export function nitCheckDigit(nit: string): number {
  if (!/^\d+$/.test(nit) || nit.length > MAX_NIT_DIGITS) throw new RangeError(`a NIT is 1 to ${MAX_NIT_DIGITS} digits (got "${nit}")`);
  let sum = 0;
  for (let i = 0; i < nit.length; i++) sum += Number(nit[nit.length - 1 - i]) * (WEIGHTS[i] ?? 0);
  const rest = sum % 11;
  return rest > 1 ? 11 - rest : rest;
}

export type NitReading =
  | { ok: true; number: string; dv: number }
  | { ok: false; reason: 'format' | 'check_digit'; expected?: number };

/** A check digit given must be right. */
export function readNit(raw: string): NitReading {
  const match = /^\s*([\d.\s]+?)\s*(?:-\s*(\d))?\s*$/.exec(raw);
  if (!match) return { ok: false, reason: 'format' };
  const number = (match[1] ?? '').replace(/[.\s]/g, '');
  if (!/^\d+$/.test(number) || number.length < 5 || number.length > MAX_NIT_DIGITS || /^0/.test(number)) return { ok: false, reason: 'format' };
  const dv = nitCheckDigit(number);
  if (match[2] !== undefined && Number(match[2]) !== dv) return { ok: false, reason: 'check_digit', expected: dv };
  return { ok: true, number, dv };
}
