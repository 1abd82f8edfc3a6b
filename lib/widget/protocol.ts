// What the widget (lib/widget) and the embedded checkout (lib/checkout/embed.ts) agree on. No
// imports: the widget bundle carries this file and nothing else of the app.

/** The checkout page's query flag for the widget's iframe, and the merchant page's origin it names. */
export const EMBED_PARAM = 'embed';
export const EMBED_ORIGIN_PARAM = 'origin';

/**
 * The type of every message the embedded checkout posts to the widget:
 * `{ type, state, transactionId?, subscriptionPlanId }` when its `data-checkout-state` or settled
 * payment changes, `{ type, action: 'close' }` when the customer presses Escape inside it.
 */
export const EMBED_MESSAGE_TYPE = 'servicepay:checkout';
