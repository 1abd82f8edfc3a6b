import { TECHNICAL_KEY_PATTERN } from './cufe';
import { bogotaIssueDateTime, type InvoicePeriod } from './dates';
import { priceLine, totalsOf, type Line, type LineInput, type Totals } from './money';
import { readNit } from './nit';

// One draft of what a provider is asked to issue, checked and totalled here, mapped by every adapter.

export type TaxIdType = 'CC' | 'NIT' | 'CE' | 'PP';

export const TAX_ID_TYPES: readonly TaxIdType[] = ['CC', 'NIT', 'CE', 'PP'];

/** Anexo 1.9, table 13.2.1. */
export const DIAN_TAX_ID_CODE: Record<TaxIdType, string> = { CC: '13', NIT: '31', CE: '22', PP: '41' };

/** The final consumer, when the buyer asks for no invoice in its name. */
export const FINAL_CONSUMER_ID = '222222222222';
export const FINAL_CONSUMER_NAME = 'Consumidor final';

export interface TaxId {
  type: TaxIdType;
  /** Digits for CC and NIT (no check digit); letters and digits for CE and PP. */
  number: string;
  /** Null for every type but NIT. */
  dv: number | null;
}

export interface Buyer {
  /** null: the final consumer. */
  taxId: TaxId | null;
  legalName: string;
  email: string | null;
}

export type PaymentMethod = 'CARD' | 'NEQUI' | 'PSE';

/** Anexo 1.9, 13.3.4.2: 48 for cards, 47 for PSE and Nequi. */
export const DIAN_PAYMENT_MEANS: Record<PaymentMethod, string> = { CARD: '48', NEQUI: '47', PSE: '47' };

export interface Resolution {
  number: string;
  /** Up to 4 letters and digits; may be empty. */
  prefix: string;
  from: number;
  to: number;
  startDate: string;
  endDate: string;
  technicalKey: string;
}

/** When the provider does not number it (Alegra). */
export interface CallerNumbering {
  prefix: string;
  number: number;
  /** A DIAN resolution for invoices, our own consecutive for credit notes. */
  resolution: Resolution | null;
}

interface DocumentDraft {
  /** txn_… or the credit note's id: the provider's idempotency key. */
  reference: string;
  issue: { date: string; time: string };
  buyer: Buyer;
  lines: Line[];
  totals: Totals;
  paymentMethod: PaymentMethod;
  numbering: CallerNumbering | null;
}

export interface InvoiceDraft extends DocumentDraft {
  kind: 'INVOICE';
  period: InvoicePeriod;
}

export interface InvoiceCitation {
  number: string;
  prefix: string;
  cufe: string;
  issueDate: string;
}

/** 1 partial return, 2 annulment, 3 discount, 4 price adjustment. */
export type CreditNoteConcept = '1' | '2' | '3' | '4';

export interface CreditNoteDraft extends DocumentDraft {
  kind: 'CREDIT_NOTE';
  concept: CreditNoteConcept;
  invoice: InvoiceCitation;
}

/** The caller's mistake, never the provider's. */
export class EInvoiceDraftError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'EInvoiceDraftError';
  }
}

function ensure(condition: boolean, field: string, message: string): void {
  if (!condition) throw new EInvoiceDraftError(field, message);
}

/** Digits, no check digit. */
export function buyerIdentification(buyer: Buyer): string {
  return buyer.taxId?.number ?? FINAL_CONSUMER_ID;
}

/** `email` null when the customer gave none. */
export function finalConsumer(email: string | null): Buyer {
  return { taxId: null, legalName: FINAL_CONSUMER_NAME, email };
}

function checkBuyer(buyer: Buyer): void {
  ensure(buyer.legalName.trim().length > 0 && buyer.legalName.length <= 200, 'buyer.legalName', 'is required, 200 characters at most');
  ensure(buyer.email === null || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(buyer.email), 'buyer.email', 'is not an e-mail address');
  const id = buyer.taxId;
  if (!id) return;
  ensure(TAX_ID_TYPES.includes(id.type), 'buyer.taxId.type', 'must be CC, NIT, CE or PP');
  ensure(id.number !== FINAL_CONSUMER_ID, 'buyer.taxId.number', 'is the final consumer\'s: leave taxId out instead');
  if (id.type === 'NIT') {
    const read = readNit(id.number);
    ensure(read.ok && read.number === id.number, 'buyer.taxId.number', 'must be the NIT\'s digits, without the check digit');
    ensure(read.ok && id.dv === read.dv, 'buyer.taxId.dv', 'is not this NIT\'s check digit');
  } else {
    ensure(id.dv === null, 'buyer.taxId.dv', 'only a NIT has a check digit');
    const pattern = id.type === 'CC' ? /^[1-9]\d{2,11}$/ : /^[A-Za-z0-9]{3,20}$/;
    ensure(pattern.test(id.number), 'buyer.taxId.number', id.type === 'CC' ? 'must be the cédula\'s digits' : 'must be letters and digits');
  }
}

function checkNumbering(numbering: CallerNumbering | null, kind: 'INVOICE' | 'CREDIT_NOTE'): void {
  if (!numbering) return;
  ensure(/^[A-Za-z0-9]{0,4}$/.test(numbering.prefix), 'numbering.prefix', 'is up to 4 letters and digits');
  ensure(Number.isSafeInteger(numbering.number) && numbering.number >= 1, 'numbering.number', 'must be a whole number, 1 or more');
  const r = numbering.resolution;
  if (kind === 'INVOICE') ensure(r !== null, 'numbering.resolution', 'an invoice is numbered within a DIAN resolution');
  if (!r) return;
  ensure(r.prefix === numbering.prefix, 'numbering.prefix', `must be the resolution's prefix "${r.prefix}"`);
  ensure(numbering.number >= r.from && numbering.number <= r.to, 'numbering.number', `is outside the resolution's range ${r.from}–${r.to}`);
  ensure(TECHNICAL_KEY_PATTERN.test(r.technicalKey), 'numbering.resolution.technicalKey', 'must be 40 lower-case hex characters');
}

function pricedLines(lines: readonly LineInput[]): Line[] {
  ensure(lines.length > 0, 'lines', 'a document has at least one line');
  return lines.map((line, i) => {
    ensure(line.description.trim().length > 0, `lines.${i}.description`, 'is required');
    try {
      return priceLine(line);
    } catch (error) {
      throw new EInvoiceDraftError(`lines.${i}`, (error as Error).message);
    }
  });
}

interface DraftInput {
  reference: string;
  issuedAt: Date;
  buyer: Buyer;
  lines: readonly LineInput[];
  paymentMethod: PaymentMethod;
  numbering?: CallerNumbering | null;
}

function documentDraft(input: DraftInput, kind: 'INVOICE' | 'CREDIT_NOTE'): DocumentDraft {
  ensure(/^[A-Za-z0-9_-]{1,64}$/.test(input.reference), 'reference', 'must be our id: letters, digits, _ and -');
  checkBuyer(input.buyer);
  checkNumbering(input.numbering ?? null, kind);
  const lines = pricedLines(input.lines);
  return {
    reference: input.reference,
    issue: bogotaIssueDateTime(input.issuedAt),
    buyer: input.buyer,
    lines,
    totals: totalsOf(lines),
    paymentMethod: input.paymentMethod,
    numbering: input.numbering ?? null,
  };
}

/** Its lines priced IVA included. */
export function invoiceDraft(input: DraftInput & { period: InvoicePeriod }): InvoiceDraft {
  ensure(/^\d{4}-\d{2}-\d{2}$/.test(input.period.start) && input.period.end >= input.period.start, 'period', 'must be Bogotá dates, start on or before end');
  return { kind: 'INVOICE', ...documentDraft(input, 'INVOICE'), period: input.period };
}

/** Concept 2 (annulment) repeats the invoice's lines. */
export function creditNoteDraft(input: DraftInput & { concept: CreditNoteConcept; invoice: InvoiceCitation }): CreditNoteDraft {
  const { invoice } = input;
  ensure(/^[0-9a-f]{96}$/.test(invoice.cufe), 'invoice.cufe', 'must be the invoice\'s CUFE, 96 lower-case hex characters');
  ensure(invoice.number.startsWith(invoice.prefix) && /^\d+$/.test(invoice.number.slice(invoice.prefix.length)), 'invoice.number', 'must be the prefix followed by the consecutive');
  ensure(/^\d{4}-\d{2}-\d{2}$/.test(invoice.issueDate), 'invoice.issueDate', 'must be YYYY-MM-DD');
  const draft = documentDraft(input, 'CREDIT_NOTE');
  ensure(draft.issue.date >= invoice.issueDate, 'invoice.issueDate', 'a credit note cannot be issued before the invoice it cites');
  return { kind: 'CREDIT_NOTE', ...draft, concept: input.concept, invoice };
}
