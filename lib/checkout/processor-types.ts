// What the hosted page tells the client form about the merchant's processor (docs/checkout.md).
// Plain data: it crosses from the server page to the browser as props.

export type PaymentMethodChoice = 'CARD' | 'NEQUI' | 'PSE';

/** One of Wompi's two documents the payer accepts; its single-use token is fetched per attempt (components/checkout/wompi-browser.ts). */
export interface ConsentDocument {
  url: string;
}

export type CheckoutProcessor =
  | { type: 'sandbox' }
  | {
      type: 'wompi';
      publicKey: string;
      apiUrl: string;
      consent: { endUserPolicy: ConsentDocument; personalData: ConsentDocument };
    };

export interface PseBank {
  code: string;
  name: string;
}
