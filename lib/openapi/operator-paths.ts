import { billingRunBodySchema, sweepSummarySchema } from '@/lib/billing/schemas';
import { healthSchema } from '@/lib/health';
import { createdMerchantSchema, createMerchantBodySchema, merchantSchema, updateMerchantBodySchema } from '@/lib/merchants/schemas';
import { errorReplies, replyHeaders } from './components';
import { curlSample } from './curl';
import { billingRunExample, createdMerchantExample, createMerchantExample, IDS, merchantExample, sweepSummaryExample, updateMerchantExample } from './examples';
import type { PathItems, SchemaComponents } from './json-schema';

// The operator API (DECISIONS 12) and the health check (DECISIONS 15). Their reply schemas live
// with the code that builds the replies (lib/merchants/schemas.ts, lib/health.ts), which parses
// each reply through them.

const OPERATOR = [{ operatorToken: [] }];
const operatorErrors = (codes: Parameters<typeof errorReplies>[0]) =>
  errorReplies(codes, {
    rateLimited: false,
    examples: {
      invalid_request: { message: 'webhookUrl: must begin with https:// (HTTP endpoints are rejected)', details: [{ path: 'webhookUrl', message: 'must begin with https:// (HTTP endpoints are rejected)' }] },
      unauthorized: { message: 'A valid operator token is required' },
      not_found: { message: 'No merchant with this id' },
    },
  });

const MERCHANT_FIELDS =
  '`webhookUrl` must be `https://`. `webhookSecret` is at least 32 printable characters. `allowedDomains` lists the sites that may embed the checkout, as `host[:port]` ' +
  '(`shop.example.com`, `*.example.com` for subdomains only, `localhost:3000`), without scheme or path.';

export function operatorPaths(components: SchemaComponents, appUrl: string): PathItems {
  return {
    '/admin/merchants': {
      post: {
        operationId: 'createMerchant',
        summary: 'Create a merchant',
        tags: ['Operators'],
        security: OPERATOR,
        description: `Creates a merchant with its first API key. When no \`webhookSecret\` is given one is generated. The reply is the only time \`apiSecret\` is shown.\n\n${MERCHANT_FIELDS}\n\nAnswers 404 while the deployment has no ADMIN_API_TOKEN.`,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: components.schema(createMerchantBodySchema, 'input', 'CreateMerchantRequest'),
              example: createMerchantExample,
            },
          },
        },
        responses: {
          '201': {
            description: 'The merchant and its credentials',
            headers: replyHeaders(false),
            content: { 'application/json': { schema: components.schema(createdMerchantSchema, 'output'), example: createdMerchantExample } },
          },
          ...operatorErrors(['invalid_request', 'unauthorized', 'not_found', 'payload_too_large', 'unsupported_media_type', 'internal_error']),
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'POST', path: '/admin/merchants', auth: 'operator', body: createMerchantExample })],
      },
    },
    '/admin/merchants/{id}': {
      patch: {
        operationId: 'updateMerchant',
        summary: 'Change a merchant',
        tags: ['Operators'],
        security: OPERATOR,
        description: `Changes the fields sent, at least one. \`webhookUrl: null\` removes the URL (events are then recorded but not sent). An \`INACTIVE\` merchant's API calls are refused with 401.\n\n${MERCHANT_FIELDS}`,
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The merchantId. A malformed id is answered 404.',
            schema: { type: 'string', pattern: '^mch_[0-9A-Za-z]{24}$' },
            example: IDS.merchant,
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: components.schema(updateMerchantBodySchema, 'input', 'UpdateMerchantRequest'),
              example: updateMerchantExample,
            },
          },
        },
        responses: {
          '200': {
            description: 'The merchant after the change',
            headers: replyHeaders(false),
            content: { 'application/json': { schema: components.schema(merchantSchema, 'output'), example: merchantExample } },
          },
          ...operatorErrors(['invalid_request', 'unauthorized', 'not_found', 'payload_too_large', 'unsupported_media_type', 'internal_error']),
        },
        'x-codeSamples': [
          curlSample(appUrl, { method: 'PATCH', path: `/admin/merchants/${IDS.merchant}`, auth: 'operator', body: updateMerchantExample }),
        ],
      },
    },
    '/admin/billing/run': {
      post: {
        operationId: 'runBillingSweep',
        summary: 'Run the renewal sweep at a given time (test clock)',
        tags: ['Operators'],
        security: OPERATOR,
        description:
          'Runs the renewal sweep as if it were `now`: every ACTIVE plan whose next charge (or retry) is due by then is charged once, with its transaction and webhook, exactly as the scheduled sweep does; a plan charged this way moves on from that time. ' +
          'One attempt per plan per call: to walk through retries (1, 3 and 5 days after the due date), call it once per day. Expired idempotency records are deleted too. ' +
          'First, the settler runs as of `now`: every PENDING charge due for a check is asked about, and one the processor never received becomes ERROR.\n\n' +
          'For tests and sandbox deployments: in production it answers 404 unless `SANDBOX_DEPLOYMENT=1`. Answers 404 while the deployment has no ADMIN_API_TOKEN. Extension of SPEC.',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: components.schema(billingRunBodySchema, 'input'), example: billingRunExample } },
        },
        responses: {
          '200': {
            description: 'What the sweep did',
            headers: replyHeaders(false),
            content: { 'application/json': { schema: components.schema(sweepSummarySchema, 'output'), example: sweepSummaryExample } },
          },
          ...operatorErrors(['invalid_request', 'unauthorized', 'not_found', 'payload_too_large', 'unsupported_media_type', 'internal_error']),
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'POST', path: '/admin/billing/run', auth: 'operator', body: billingRunExample })],
      },
    },
    '/api/health': {
      get: {
        operationId: 'getHealth',
        summary: 'Health check',
        tags: ['Service'],
        security: [],
        description: 'Whether the service and its database answer. Never cached.',
        responses: {
          '200': {
            description: 'The service and its database answer',
            content: { 'application/json': { schema: components.schema(healthSchema, 'output'), example: { status: 'ok', db: 'ok' } } },
          },
          '503': {
            description: 'The database does not answer',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Health' }, example: { status: 'error', db: 'unreachable' } },
            },
          },
        },
        'x-codeSamples': [curlSample(appUrl, { method: 'GET', path: '/api/health', auth: 'none' })],
      },
    },
  };
}
