// POST /merchants/subscription-plans/{id}/manage-link (docs/customers.md, extension), declared for its route and the OpenAPI document
import { type DocumentSettings, operation } from '@/lib/api/operation';
import { manageLinkSchema } from '@/lib/customers/schemas';
import { planIdParam, SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS, manageLinkExample } from '@/lib/openapi/examples';
import { emptyBodySchema } from '@/lib/plans/schemas';

export const POST = operation({
  method: 'POST',
  path: '/merchants/subscription-plans/{id}/manage-link',
  operationId: 'createManageLink',
  summary: "Create a link to the plan's customer page",
  tag: 'Subscription plans',
  auth: 'merchant',
  limit: 'merchant',
  description:
    'A new link to `/manage/<token>`, where the customer sees the plan, its next charge and its charges, replaces the payment method and cancels (docs/customers.md). ' +
    'It works without any login for 7 days; every e-mail to the customer carries one too. Each call makes a new link; earlier ones keep working until they expire. ' +
    `No body is needed (an empty body or \`{}\`). Beyond the contract of API version 2026-11-20 (docs/api.md#versioning).\n\n${SHARED_LIMIT}`,
  params: { id: planIdParam },
  body: { schema: emptyBodySchema.strict(), required: false },
  replies: { 201: { description: 'The link and when it expires', body: { schema: manageLinkSchema, example: (settings: DocumentSettings) => manageLinkExample(settings.appUrl) } } },
  errors: ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
  sample: { path: `/merchants/subscription-plans/${IDS.plan}/manage-link` },
});
