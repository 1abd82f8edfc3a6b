// ServicePay widget: the types of `window.ServicePay` (docs/checkout.md#embedding). Copy this file into your
// project (it is served as /widget.d.ts) to type the script you load from /widget.js.

/** Given once the payment is APPROVED on ServicePay's server (a PENDING one is waited for). */
interface ServicePaySuccess {
  /** The processor's id: the same value as `data.transactionId` in webhooks. */
  transactionId: string;
  subscriptionPlanId: string;
  status: 'APPROVED';
}

/**
 * - `invalid_token`: `open` was called without a 10-character token (no modal is shown).
 * - `not_found`: unknown token, or this page's origin is not in the merchant's allowedDomains
 *   (the modal closes by itself).
 * - `session_expired`, `already_paid`, `unavailable`: the link cannot be paid; the modal shows why.
 * - `declined`, `payment_error`: a payment failed (once per payment, with its `transactionId`);
 *   the customer may try again in the same modal.
 */
export type ServicePayErrorCode =
  | 'invalid_token'
  | 'not_found'
  | 'session_expired'
  | 'already_paid'
  | 'unavailable'
  | 'declined'
  | 'payment_error';

export interface ServicePayError {
  code: ServicePayErrorCode;
  /** For developers, in English; the customer sees the checkout's own message. */
  message: string;
  transactionId?: string;
}

export interface ServicePayOpenOptions {
  /** The `token` of the payment link your backend created (POST /merchants/subscription-link). */
  token: string;
  /** At most once per `open`. */
  onSuccess?: (result: ServicePaySuccess) => void;
  onError?: (error: ServicePayError) => void;
  /** When the customer closes the modal (close button, Escape, a click outside); not after `close()`. */
  onClose?: () => void;
}

export interface ServicePayHandle {
  /** Closes the modal, unless a payment is being processed. */
  close(): void;
}

export interface ServicePayWidget {
  /**
   * Opens the checkout in a modal. Call it inside the click handler of your button. While a modal
   * is open, another call returns the open one's handle.
   */
  open(options: ServicePayOpenOptions): ServicePayHandle;
}

declare global {
  interface Window {
    ServicePay?: ServicePayWidget;
  }
}
