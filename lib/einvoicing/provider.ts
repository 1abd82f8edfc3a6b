import type { CreditNoteDraft, InvoiceDraft } from './draft';

// The port every e-invoicing adapter implements: a call answers what DIAN decided or throws one of the errors below.

export type ProviderKind = 'factus' | 'alegra';

/** A rule (90, FAD06, a field name) and its text. */
export interface DianMessage {
  rule: string;
  message: string;
}

export interface IssuedDocument {
  status: 'ISSUED';
  number: string;
  /** CUFE, or a credit note's CUDE. */
  cufe: string;
  /** The QR code's content. */
  qrUrl: string;
  pdfUrl?: string;
  xmlUrl?: string;
  providerId: string;
  /** Accepted anyway, kept for the merchant. */
  warnings: DianMessage[];
}

export interface RejectedDocument {
  status: 'REJECTED';
  /** The merchant fixes the cause and it is issued again. */
  errors: DianMessage[];
}

export type IssueResult = IssuedDocument | RejectedDocument;

/** Retry the same draft (same reference and number) later. */
export class EInvoiceRetryableError extends Error {
  constructor(
    message: string,
    /** Retry-After, when given. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EInvoiceRetryableError';
  }
}

/** Nothing is issued until the merchant fixes them. */
export class EInvoiceAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EInvoiceAuthError';
  }
}

export interface DocumentLookup {
  kind: 'INVOICE' | 'CREDIT_NOTE';
  reference: string;
  providerId?: string;
  /** When we numbered it (Alegra) or the provider told us. */
  number?: string;
}

export interface EInvoiceProvider {
  readonly kind: ProviderKind;
  /** The provider from the merchant's ranges, or we (`caller`) in each draft. */
  readonly numbering: 'provider' | 'caller';
  /** Issues nothing. Throws EInvoiceAuthError or EInvoiceRetryableError. */
  checkCredentials(): Promise<void>;
  /** Idempotent on `draft.reference` (and the number when we number). */
  issueInvoice(draft: InvoiceDraft): Promise<IssueResult>;
  issueCreditNote(draft: CreditNoteDraft): Promise<IssueResult>;
  /** Null when it has none. */
  findDocument(lookup: DocumentLookup): Promise<IssueResult | null>;
}
