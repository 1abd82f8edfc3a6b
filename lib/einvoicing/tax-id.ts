import { FINAL_CONSUMER_ID, TAX_ID_TYPES, type TaxId, type TaxIdType } from './draft';
import { readNit } from './nit';

// A buyer's document as a person types it (docs/einvoicing.md#the-buyer), read one way for the
// API's `customer.taxId` and the customer's "Factura a nombre de…" forms: a NIT with or without
// its check digit (a wrong one refused, saying the right one), other documents kept whole.

export type TaxIdProblem = 'type' | 'required' | 'final_consumer' | 'nit' | 'check_digit' | 'cc' | 'document';

export type TaxIdReading = { ok: true; taxId: TaxId } | { ok: false; problem: TaxIdProblem; expected?: number };

export function isTaxIdType(value: string): value is TaxIdType {
  return (TAX_ID_TYPES as readonly string[]).includes(value);
}

export function readTaxId(type: string, raw: string): TaxIdReading {
  if (!isTaxIdType(type)) return { ok: false, problem: 'type' };
  const number = raw.trim();
  if (number === '') return { ok: false, problem: 'required' };
  if (number.replace(/[.\s-]/g, '') === FINAL_CONSUMER_ID) return { ok: false, problem: 'final_consumer' };
  if (type === 'NIT') {
    const read = readNit(number);
    if (!read.ok) return read.reason === 'check_digit' ? { ok: false, problem: 'check_digit', expected: read.expected } : { ok: false, problem: 'nit' };
    return { ok: true, taxId: { type, number: read.number, dv: read.dv } };
  }
  if (type === 'CC' && !/^[1-9]\d{2,11}$/.test(number)) return { ok: false, problem: 'cc' };
  if (type !== 'CC' && !/^[A-Za-z0-9]{3,20}$/.test(number)) return { ok: false, problem: 'document' };
  return { ok: true, taxId: { type, number, dv: null } };
}

/** How a document is written on a page: a NIT with its check digit (900559088-2). */
export function formatTaxId(taxId: TaxId): string {
  return taxId.type === 'NIT' && taxId.dv !== null ? `${taxId.number}-${taxId.dv}` : taxId.number;
}
