import { manageLinkSchema } from '@/lib/customers/schemas';
import { LIMITS } from '@/lib/rate-limit/limits';
import { errorReplies, replyHeaders } from './components';
import { curlSample } from './curl';
import { IDS, manageLinkExample } from './examples';
import type { PathItems, SchemaComponents } from './json-schema';

// The customers' side (DECISIONS 18, extension; docs/customers.md): the link to a plan's customer page.

export function customerPaths(components: SchemaComponents, appUrl: string): PathItems {
  return {
    '/merchants/subscription-plans/{id}/manage-link': {
      post: {
        operationId: 'createManageLink',
        summary: "Create a link to the plan's customer page",
        tags: ['Subscription plans'],
        security: [{ merchantKey: [] }],
        description: [
          'A new link to `/manage/<token>`, where the customer sees the plan, its next charge and its charges, replaces the payment method and cancels. ' +
            'It works without any login for 7 days; every e-mail to the customer carries one too. Each call makes a new link; earlier ones keep working until they expire. No body is needed (`{}` is accepted).',
          '',
          `Rate limit: ${LIMITS.merchant} requests a minute per api_key, shared with the other merchant endpoints except link creation and plan status.`,
        ].join('\n'),
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The subscriptionPlanId returned at link creation. A malformed id is answered 404.',
            schema: { type: 'string', pattern: '^sub_[0-9A-Za-z]{24}$' },
            example: IDS.plan,
          },
        ],
        responses: {
          '201': {
            description: 'The link and when it expires',
            headers: replyHeaders(true),
            content: { 'application/json': { schema: components.schema(manageLinkSchema, 'output'), example: manageLinkExample(appUrl) } },
          },
          ...errorReplies(
            ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
            { rateLimited: true },
          ),
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'POST', path: `/merchants/subscription-plans/${IDS.plan}/manage-link`, auth: 'merchant' })],
      },
    },
  };
}
