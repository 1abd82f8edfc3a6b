// GET /checkout/session/{token} (docs/api.md#checkout-session), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { checkoutSessionSchema } from '@/lib/checkout/schemas';
import { checkoutSessionExample, IDS } from '@/lib/openapi/examples';
import { LIMITS } from '@/lib/rate-limit/limits';
import { CHECKOUT_TOKEN_PATTERN } from '@/lib/widget/protocol';

/** The checkout token in a path. */
export const tokenParam = {
  description: 'The 10-character token returned by link creation. Any other string is answered 404.',
  pattern: CHECKOUT_TOKEN_PATTERN.source,
  example: IDS.token,
};

export const GET = operation({
  method: 'GET',
  path: '/checkout/session/{token}',
  operationId: 'getCheckoutSession',
  summary: 'Resolve a checkout token',
  tag: 'Checkout',
  auth: 'checkout',
  limit: 'checkout-session',
  description:
    'What the checkout shows for a token: plan, amount, merchant and the customer data it pre-fills. No credentials: the token is the secret, so replies are never cached. ' +
    'A token whose plan was already paid (or paused, or cancelled) still resolves, with its `status`; only an unpaid link expires.\n\n' +
    `Rate limit: ${LIMITS['checkout-session']} requests a minute per client IP address.`,
  params: { token: tokenParam },
  replies: { 200: { description: 'The checkout session', body: { schema: checkoutSessionSchema, example: checkoutSessionExample } } },
  errors: ['session_expired', 'not_found', 'rate_limited', 'internal_error'],
  errorExamples: {
    not_found: { message: 'No checkout session with this token' },
    rate_limited: { message: 'Too many requests from this address; wait a moment' },
  },
  sample: { path: `/checkout/session/${IDS.token}` },
});
