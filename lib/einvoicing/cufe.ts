import { createHash } from 'node:crypto';
import { formatAmount } from './money';

// CUFE and CUDE (docs/einvoicing.md#cufe): SHA-384 of concatenated fields, each checked first, since
// a malformed one hashes to a key DIAN rejects after the number is burned.

/** 1 production, 2 habilitación. */
export type DianEnvironment = 1 | 2;

interface DocumentKeyFields {
  /** With its prefix. */
  number: string;
  /** Bogotá */
  issueDate: string;
  /** HH:MM:SS-05:00 */
  issueTime: string;
  lineExtension: number;
  /** IVA (01), INC (04) and ICA (03) in cents; 0 when absent. */
  iva: number;
  inc: number;
  ica: number;
  payable: number;
  /** Digits only, without its check digit. */
  supplierNit: string;
  /** Digits only, without a check digit (222222222222 for a final consumer). */
  buyerId: string;
  environment: DianEnvironment;
}

export interface CufeFields extends DocumentKeyFields {
  /** ClTec: 40 lower-case hex characters. */
  technicalKey: string;
}

export interface CudeFields extends DocumentKeyFields {
  softwarePin: string;
}

export const TECHNICAL_KEY_PATTERN = /^[0-9a-f]{40}$/;

function check(condition: boolean, message: string): void {
  if (!condition) throw new RangeError(message);
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function commonString(f: DocumentKeyFields): string {
  check(/^[A-Za-z0-9]+$/.test(f.number), `number must be the document's ID with its prefix, letters and digits only (got "${f.number}")`);
  check(isCalendarDate(f.issueDate), `issueDate must be YYYY-MM-DD (got "${f.issueDate}")`);
  check(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d-05:00$/.test(f.issueTime), `issueTime must be HH:MM:SS-05:00, Bogotá's offset included (got "${f.issueTime}")`);
  check(/^\d+$/.test(f.supplierNit), `supplierNit must be digits only, without the check digit (got "${f.supplierNit}")`);
  check(/^\d+$/.test(f.buyerId), `buyerId must be digits only, without a NIT's check digit (got "${f.buyerId}")`);
  check(f.environment === 1 || f.environment === 2, `environment must be 1 (production) or 2 (tests) (got ${String(f.environment)})`);
  return (
    f.number +
    f.issueDate +
    f.issueTime +
    formatAmount(f.lineExtension) +
    '01' +
    formatAmount(f.iva) +
    '04' +
    formatAmount(f.inc) +
    '03' +
    formatAmount(f.ica) +
    formatAmount(f.payable) +
    f.supplierNit +
    f.buyerId
  );
}

/** Exported for tests and for explaining a mismatch. */
export function cufeString(f: CufeFields): string {
  check(TECHNICAL_KEY_PATTERN.test(f.technicalKey), 'technicalKey must be the numbering range\'s 40 lower-case hex characters');
  return commonString(f) + f.technicalKey + f.environment;
}

export function cudeString(f: CudeFields): string {
  check(/^\d{4,10}$/.test(f.softwarePin), 'softwarePin must be the software PIN registered with DIAN (digits), not the technical key');
  return commonString(f) + f.softwarePin + f.environment;
}

const sha384 = (input: string) => createHash('sha384').update(input, 'utf8').digest('hex');

export function cufe(f: CufeFields): string {
  return sha384(cufeString(f));
}

export function cude(f: CudeFields): string {
  return sha384(cudeString(f));
}

/** The QR code's content: the test catalogue in habilitación. */
export function dianQrUrl(documentKey: string, environment: DianEnvironment): string {
  const host = environment === 1 ? 'catalogo-vpfe.dian.gov.co' : 'catalogo-vpfe-hab.dian.gov.co';
  return `https://${host}/document/searchqr?documentkey=${documentKey}`;
}
