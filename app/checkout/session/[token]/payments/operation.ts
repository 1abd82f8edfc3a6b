// POST /checkout/session/{token}/payments (extension, docs/checkout.md), declared for its route;
// left out of the merchants' reference.
import { operation } from '@/lib/api/operation';
import { IDS } from '@/lib/openapi/examples';
import { tokenParam } from '../operation';

export const POST = operation({
  method: 'POST',
  path: '/checkout/session/{token}/payments',
  operationId: 'payCheckout',
  summary: 'Pay a checkout session',
  tag: 'Checkout',
  auth: 'checkout',
  limit: 'checkout-session',
  description: "The customer pays the link: the sandbox's card fields, a card token from Wompi, Nequi or PSE, through the merchant's processor.",
  params: { token: tokenParam },
  replies: { 200: { description: 'The payment as it stands' } },
  errors: ['invalid_request', 'session_expired', 'not_found', 'conflict', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
  sample: { path: `/checkout/session/${IDS.token}/payments` },
  undocumented: "the hosted checkout's own card form; merchants never send card data",
});
