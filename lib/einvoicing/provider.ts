import type { CreditNoteDraft, InvoiceDraft } from './draft';

// The port every e-invoicing adapter implements (docs/einvoicing.md#providers): a call answers what
// DIAN decided or throws one of the two errors below.

export type ProviderKind = 'factus' | 'alegra';

/** One of DIAN's (or the provider's) reasons: a rule such as 90, FAD06 or a field name, and its text. */
export interface DianMessage {
  rule: string;
  message: string;
}

export interface IssuedDocument {
  status: 'ISSUED';
  /** With its prefix, e.g. SETP990000001. */
  number: string;
  /** The invoice's CUFE, or a credit note's CUDE. */
  cufe: string;
  /** DIAN's public page of the document (the QR code's content). */
  qrUrl: string;
  pdfUrl?: string;
  xmlUrl?: string;
  /** The provider's own id of the document, to read it again. */
  providerId: string;
  /** DIAN's notifications: accepted anyway, kept for the merchant. */
  warnings: DianMessage[];
}

export interface RejectedDocument {
  status: 'REJECTED';
  /** Why; the merchant fixes the cause and the document is issued again. */
  errors: DianMessage[];
}

export type IssueResult = IssuedDocument | RejectedDocument;

/** The provider could not answer now; retry the same draft (same reference and number) later. */
export class EInvoiceRetryableError extends Error {
  constructor(
    message: string,
    /** The provider's own wait (Retry-After), when it gave one. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EInvoiceRetryableError';
  }
}

/** The provider refused the merchant's credentials: nothing is issued until the merchant fixes them. */
export class EInvoiceAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EInvoiceAuthError';
  }
}

/** A document to look up by what we sent: our reference, and our number when we gave it one. */
export interface DocumentLookup {
  kind: 'INVOICE' | 'CREDIT_NOTE';
  reference: string;
  /** The provider's id from an earlier answer, when we have one. */
  providerId?: string;
  /** With its prefix, when we numbered the document (Alegra) or the provider told us. */
  number?: string;
}

export interface EInvoiceProvider {
  readonly kind: ProviderKind;
  /** Who numbers documents: the provider from the merchant's ranges, or we (`caller`) in each draft. */
  readonly numbering: 'provider' | 'caller';
  /** Whether the credentials work; issues nothing. Throws EInvoiceAuthError or EInvoiceRetryableError. */
  checkCredentials(): Promise<void>;
  /** Idempotent on `draft.reference` (and on the number, when we number): a repeat answers the same document. */
  issueInvoice(draft: InvoiceDraft): Promise<IssueResult>;
  issueCreditNote(draft: CreditNoteDraft): Promise<IssueResult>;
  /** The document as the provider has it; null when it has none. */
  findDocument(lookup: DocumentLookup): Promise<IssueResult | null>;
}
