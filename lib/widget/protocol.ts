// What the widget (lib/widget) and the embedded checkout (lib/checkout/embed.ts) agree on. No
// imports: the widget bundle carries this file and nothing else of the app.

/** The checkout page's query flag for the widget's iframe, and the merchant page's origin it names. */
export const EMBED_PARAM = 'embed';
export const EMBED_ORIGIN_PARAM = 'origin';

/** The type of every message the embedded checkout posts to the widget. */
export const EMBED_MESSAGE_TYPE = 'servicepay:checkout';

/** The checkout's states: its root element's `data-checkout-state`, and the `state` it posts. */
export type CheckoutState = 'ready' | 'processing' | 'approved' | 'declined' | 'error' | 'expired' | 'paid' | 'unavailable';

/** The checkout token: made by link creation, checked by the session, the page's headers and `open()`. */
export const CHECKOUT_TOKEN_LENGTH = 10;
export const CHECKOUT_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9]{${CHECKOUT_TOKEN_LENGTH}}$`);
