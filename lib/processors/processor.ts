import type { Card, CardBrand } from './card';

// What the domain needs of a payment processor. The built-in sandbox and each merchant's Wompi
// account implement it (docs/processors.md), so processor details stay out of the domain.

export type DeclineReason = 'insufficient_funds' | 'card_not_supported' | 'processor_error';

/** What a transaction records as its failureMessage for each reason. */
export const DECLINE_MESSAGES: Record<DeclineReason, string> = {
  insufficient_funds: 'Declined: insufficient funds',
  card_not_supported: 'Declined: card not supported',
  processor_error: 'The processor failed to handle the charge',
};

/** The processor refused a call for rate (Wompi's 429) before handling it: nothing was charged; retry after `retryAfterMs`. */
export class ProcessorRateLimited extends Error {
  constructor(readonly retryAfterMs: number | null) {
    super(`The payment processor refused the call for rate${retryAfterMs === null ? '' : `; try again in ${retryAfterMs} ms`}`);
    this.name = 'ProcessorRateLimited';
  }
}

export interface PaymentMethod {
  /** The processor's reusable token for the card: what renewals charge; never the card number. */
  token: string;
  brand: CardBrand;
  last4: string;
}

/** How a payment is made: what a transaction records as its method. Only a CARD charge can be voided. */
export type PaymentMethodType = 'CARD' | 'NEQUI' | 'PSE';

export interface ChargeResult {
  status: 'APPROVED' | 'DECLINED' | 'ERROR' | 'PENDING';
  /** The processor's id: hyphen-separated numeric parts. Every charge gets one, ERROR included. */
  gatewayTransactionId: string;
  declineReason?: DeclineReason;
  /** PSE: the bank's page the payer is sent to, once the processor has it. */
  redirectUrl?: string;
}

/** A repeat charge of a saved payment method (renewals). */
export interface ChargeRequest {
  amount: number;
  currency: 'COP';
  reference: string;
  paymentMethod: string;
  /** `customer` when the customer is paying now, `recurring` for a renewal the customer agreed to. */
  initiator: 'customer' | 'recurring';
  customerEmail?: string;
}

/** Both Wompi acceptance tokens the payer accepted on the page (docs/processors.md). */
export interface Consent {
  acceptanceToken: string;
  personalDataToken: string;
}

export type PaymentInstrument =
  /** The sandbox only: the card reaches our server, and the sandbox tokenizes it. */
  | { type: 'CARD'; card: Card }
  /** Tokenized in the browser at the processor; only the token reaches us. */
  | { type: 'CARD_TOKEN'; token: string; brand: CardBrand; last4: string }
  | { type: 'NEQUI'; phoneNumber: string }
  /** A Nequi token the payer already approved in the app (tokenized in the browser). */
  | { type: 'NEQUI_TOKEN'; token: string; phoneNumber: string }
  | {
      type: 'PSE';
      userType: 'PERSON' | 'COMPANY';
      legalIdType: string;
      legalId: string;
      institutionCode: string;
      fullName: string;
      phoneNumber: string;
    };

export interface PaymentRequest {
  amount: number;
  currency: 'COP';
  reference: string;
  customerEmail: string;
  instrument: PaymentInstrument;
  /** A RECURRING plan's first payment: the method is saved for the renewals. */
  saveForRenewals: boolean;
  /** The pair the payer accepted for this attempt (Wompi): fresh, and spent by this payment. */
  consent?: Consent;
  /** Called with the saved method before it is charged, so a charge whose reply is lost still renews on it. */
  onMethodSaved?: (paymentMethodToken: string) => Promise<void>;
  description: string;
  /** Where a payer sent to their bank (PSE) comes back to. */
  redirectUrl: string;
}

export interface PaymentResult extends ChargeResult {
  /** What renewals charge (a saved method), or null when nothing was saved. */
  paymentMethodToken: string | null;
}

export interface PseInstitution {
  code: string;
  name: string;
}

export interface PaymentProcessor {
  /** True for a processor that moves no real money (the sandbox): what a demo may use freely. */
  readonly sandbox: boolean;
  readonly kind: 'sandbox' | 'wompi';
  pay(request: PaymentRequest): Promise<PaymentResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The current state of a charge; a PENDING one settles here once the processor decides. */
  retrieve(gatewayTransactionId: string): Promise<ChargeResult>;
  /** The charge made under our reference (the `txn_` id), or null if none was received (docs/settlement.md). */
  findByReference(reference: string): Promise<ChargeResult | null>;
  /** VOIDED: done; ERROR: refused; PENDING: the processor has not decided yet (its event will say). */
  void(gatewayTransactionId: string): Promise<{ status: 'VOIDED' | 'ERROR' | 'PENDING' }>;
  pseInstitutions(): Promise<PseInstitution[]>;
  /** Wompi: where a Nequi token stands while the payer approves it in the app (docs/processors.md#nequi-subscriptions). */
  nequiTokenStatus?(token: string): Promise<'PENDING' | 'APPROVED' | 'DECLINED'>;
  /** Wompi: the transaction as the processor tells it, what its events are checked against (docs/processors.md#wompis-events). */
  readTransaction?(gatewayTransactionId: string): Promise<{ reference: string; amountInCents: number; status: string; result: ChargeResult }>;
  /** Saves a new method for renewals without charging it (the manage page); absent where not supported. */
  saveMethod?(request: { instrument: PaymentInstrument; customerEmail: string; consent?: Consent }): Promise<SavedMethod>;
}

type SavedMethod = { ok: true; token: string } | { ok: false; declineReason: DeclineReason };

/** The method of a saved token (sandbox `pm_sandbox_nequi_…`, Wompi `wompi_source_NEQUI_…`): what a renewal charges. */
export function savedMethodType(token: string | null): PaymentMethodType {
  return token && /(^pm_sandbox_nequi_|^wompi_source_NEQUI_)/.test(token) ? 'NEQUI' : 'CARD';
}
