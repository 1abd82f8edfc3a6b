import { checkoutSessionSchema } from '@/lib/checkout/schemas';
import { LIMITS } from '@/lib/rate-limit/limits';
import { CHECKOUT_TOKEN_PATTERN } from '@/lib/widget/protocol';
import { errorReplies, replyHeaders } from './components';
import { curlSample } from './curl';
import { checkoutSessionExample, IDS } from './examples';
import type { PathItems, SchemaComponents } from './json-schema';

export function checkoutPaths(components: SchemaComponents, appUrl: string): PathItems {
  return {
    '/checkout/session/{token}': {
      get: {
        operationId: 'getCheckoutSession',
        summary: 'Resolve a checkout token',
        tags: ['Checkout'],
        security: [],
        description:
          'What the checkout shows for a token: plan, amount, merchant and the customer data it pre-fills. No credentials: the token is the secret, so replies are never cached. ' +
          'A token whose plan was already paid (or paused, or cancelled) still resolves, with its `status`; only an unpaid link expires.\n\n' +
          `Rate limit: ${LIMITS['checkout-session']} requests a minute per client IP address.`,
        parameters: [
          {
            name: 'token',
            in: 'path',
            required: true,
            description: 'The 10-character token returned by link creation. Any other string is answered 404.',
            schema: { type: 'string', pattern: CHECKOUT_TOKEN_PATTERN.source },
            example: IDS.token,
          },
        ],
        responses: {
          '200': {
            description: 'The checkout session',
            headers: replyHeaders(true),
            content: { 'application/json': { schema: components.schema(checkoutSessionSchema, 'output'), example: checkoutSessionExample } },
          },
          ...errorReplies(['session_expired', 'not_found', 'rate_limited', 'internal_error'], {
            rateLimited: true,
            examples: {
              not_found: { message: 'No checkout session with this token' },
              rate_limited: { message: 'Too many requests from this address; wait a moment' },
            },
          }),
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'GET', path: `/checkout/session/${IDS.token}`, auth: 'none' })],
      },
    },
  };
}
