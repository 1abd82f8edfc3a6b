import type { Card, CardBrand } from './card';

// What the domain needs of a payment processor: the sandbox and each merchant's Wompi account (docs/processors.md).

export type DeclineReason = 'insufficient_funds' | 'card_not_supported' | 'processor_error';

export const DECLINE_MESSAGES: Record<DeclineReason, string> = {
  insufficient_funds: 'Declined: insufficient funds',
  card_not_supported: 'Declined: card not supported',
  processor_error: 'The processor failed to handle the charge',
};

/** Refused for rate (Wompi's 429) before it was handled: nothing charged. */
export class ProcessorRateLimited extends Error {
  constructor(readonly retryAfterMs: number | null) {
    super(`The payment processor refused the call for rate${retryAfterMs === null ? '' : `; try again in ${retryAfterMs} ms`}`);
    this.name = 'ProcessorRateLimited';
  }
}

export interface PaymentMethod {
  /** The processor's reusable token; never the card number. */
  token: string;
  brand: CardBrand;
  last4: string;
}

/** Only a CARD charge can be voided. */
export type PaymentMethodType = 'CARD' | 'NEQUI' | 'PSE';

export interface ChargeResult {
  status: 'APPROVED' | 'DECLINED' | 'ERROR' | 'PENDING';
  /** Hyphen-separated numeric parts; every charge gets one, ERROR included. */
  gatewayTransactionId: string;
  declineReason?: DeclineReason;
  /** PSE: the bank's page, once the processor has it. */
  redirectUrl?: string;
}

export interface ChargeRequest {
  amount: number;
  currency: 'COP';
  reference: string;
  paymentMethod: string;
  /** `recurring` for a renewal the customer agreed to. */
  initiator: 'customer' | 'recurring';
  customerEmail?: string;
}

export interface Consent {
  acceptanceToken: string;
  personalDataToken: string;
}

export type PaymentInstrument =
  /** The sandbox only: it tokenizes the card on our server. */
  | { type: 'CARD'; card: Card }
  /** Tokenized in the browser; only the token reaches us. */
  | { type: 'CARD_TOKEN'; token: string; brand: CardBrand; last4: string }
  | { type: 'NEQUI'; phoneNumber: string }
  /** Approved in the app, tokenized in the browser. */
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
  /** Fresh, and spent by this payment. */
  consent?: Consent;
  /** Called before the charge, so a charge whose reply is lost still renews on it. */
  onMethodSaved?: (paymentMethodToken: string) => Promise<void>;
  description: string;
  redirectUrl: string;
}

export interface PaymentResult extends ChargeResult {
  /** Null when nothing was saved. */
  paymentMethodToken: string | null;
}

export interface PseInstitution {
  code: string;
  name: string;
}

export interface PaymentProcessor {
  /** True for the sandbox: no real money moves. */
  readonly sandbox: boolean;
  readonly kind: 'sandbox' | 'wompi';
  pay(request: PaymentRequest): Promise<PaymentResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  retrieve(gatewayTransactionId: string): Promise<ChargeResult>;
  /** The charge made under our reference, or null if none was received (docs/settlement.md). */
  findByReference(reference: string): Promise<ChargeResult | null>;
  /** PENDING: the processor's event will say. */
  void(gatewayTransactionId: string): Promise<{ status: 'VOIDED' | 'ERROR' | 'PENDING' }>;
  pseInstitutions(): Promise<PseInstitution[]>;
  /** Wompi: a Nequi token's state while the payer approves it. */
  nequiTokenStatus?(token: string): Promise<'PENDING' | 'APPROVED' | 'DECLINED'>;
  /** Wompi: what events are checked against. */
  readTransaction?(gatewayTransactionId: string): Promise<{ reference: string; amountInCents: number; status: string; result: ChargeResult }>;
  /** Saves a method without charging it; absent where not supported. */
  saveMethod?(request: { instrument: PaymentInstrument; customerEmail: string; consent?: Consent }): Promise<SavedMethod>;
}

type SavedMethod = { ok: true; token: string } | { ok: false; declineReason: DeclineReason };

/** A saved token's method (`pm_sandbox_nequi_…`, `wompi_source_NEQUI_…`). */
export function savedMethodType(token: string | null): PaymentMethodType {
  return token && /(^pm_sandbox_nequi_|^wompi_source_NEQUI_)/.test(token) ? 'NEQUI' : 'CARD';
}
