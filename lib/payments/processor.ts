import type { Card, CardBrand } from './card';

// What the domain needs of a payment processor. The sandbox implements it today; a real
// processor (Wompi, Mercado Pago) implements the same, so processor details stay out of the domain.

export type DeclineReason = 'insufficient_funds' | 'card_not_supported' | 'processor_error';

/** What a transaction records as its failureMessage for each reason. */
export const DECLINE_MESSAGES: Record<DeclineReason, string> = {
  insufficient_funds: 'Declined: insufficient funds',
  card_not_supported: 'Declined: card not supported',
  processor_error: 'The processor failed to handle the charge',
};

export interface PaymentMethod {
  /** The processor's reusable token for the card: what renewals charge; never the card number. */
  token: string;
  brand: CardBrand;
  last4: string;
}

export interface ChargeResult {
  status: 'APPROVED' | 'DECLINED' | 'ERROR' | 'PENDING';
  /** The processor's id: hyphen-separated numeric parts. Every charge gets one, ERROR included. */
  gatewayTransactionId: string;
  declineReason?: DeclineReason;
}

export interface ChargeRequest {
  amount: number;
  currency: 'COP';
  /** Our transaction id, for the processor's records and idempotency. */
  reference: string;
  paymentMethod: string;
  /** `customer` when the customer is paying now, `recurring` for a renewal the customer agreed to. */
  initiator: 'customer' | 'recurring';
}

export interface PaymentProcessor {
  /** True for a processor that moves no real money (the sandbox): what a demo may use freely. */
  readonly sandbox: boolean;
  tokenize(card: Card): Promise<PaymentMethod>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The current state of a charge; a PENDING one settles here once the processor decides. */
  retrieve(gatewayTransactionId: string): Promise<ChargeResult>;
  void(gatewayTransactionId: string): Promise<{ status: 'VOIDED' | 'ERROR' }>;
}
