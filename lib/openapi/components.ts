import { API_VERSIONS, LATEST_API_VERSION } from '@/lib/api-versions';
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '@/lib/api/errors';
import type { ErrorExample } from '@/lib/api/operation';
import { LIMITS } from '@/lib/rate-limit/limits';
import { IDS } from './examples';
import { idPattern } from '@/lib/ids';

type JsonObject = Record<string, unknown>;

// What every operation shares: the docs/api.md#conventions error body, the headers of docs/api.md#conventions, docs/api.md#rate-limits, the
// two Bearer schemes, and the error replies built from the one table of codes.

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The error body of lib/api/errors.ts `errorBody()`, as a schema (the test holds them equal). */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).describe('Stable; branch on it, not on the message'),
      message: z.string().describe('For a developer to read; its wording may change'),
      details: z
        .array(
          z.object({
            path: z.string().describe('Dotted path of the field, such as customer.email'),
            message: z.string(),
          }),
        )
        .optional()
        .describe('Only for invalid_request: one entry per invalid field'),
      requestId: z.string().describe('Same value as the X-Request-Id header'),
    }),
  })
  .meta({ id: 'Error', description: 'The body of every 4xx and 5xx reply' });

/** What each code means to the caller; a code missing here fails the type check. */
export const ERROR_MEANING: Record<ErrorCode, string> = {
  invalid_request: 'The body, a header or a parameter is invalid; `details` names each field',
  session_expired: 'The checkout token has expired',
  unauthorized: 'Missing or wrong credentials, revoked key, or inactive merchant',
  forbidden: 'The resource belongs to another account',
  not_found: 'No such resource (a malformed id is not found either)',
  conflict: 'An open plan (PENDING_ACTIVATION, ACTIVE or PAUSED) already has this externalReference, or the plan or transaction is not in a status this change applies to',
  idempotency_key_reused: 'This Idempotency-Key was already used with a different body',
  payload_too_large: 'The body is larger than 64 KiB',
  unsupported_media_type: 'The body is not sent as `Content-Type: application/json`',
  rate_limited: 'Too many requests in the last minute; wait `Retry-After` seconds',
  internal_error: 'A fault on our side; nothing internal is disclosed. Quote the requestId to support',
  service_unavailable: 'The database is briefly out of reach (a restart or failover); nothing was changed that the reply does not say. Retry after `Retry-After` seconds',
};


const ERROR_EXAMPLES: Record<ErrorCode, ErrorExample> = {
  invalid_request: {
    message: 'plan.amount: must be a whole number of cents',
    details: [{ path: 'plan.amount', message: 'must be a whole number of cents' }],
  },
  session_expired: { message: 'This checkout link has expired; ask the merchant for a new one' },
  unauthorized: { message: 'Send Authorization: Bearer <api_key>:<api_secret> with an active key' },
  forbidden: { message: 'This subscription plan belongs to another account' },
  not_found: { message: 'No subscription plan with this id' },
  conflict: { message: 'A plan with this externalReference is already open (pending, active or paused)' },
  idempotency_key_reused: { message: 'This Idempotency-Key was already used with a different body' },
  payload_too_large: { message: 'The body is larger than 64 KiB' },
  unsupported_media_type: { message: 'Send the body as JSON with Content-Type: application/json' },
  rate_limited: { message: 'Too many requests: at most 60 a minute for this api_key' },
  internal_error: { message: 'Something went wrong on our side' },
  service_unavailable: { message: 'The service is briefly unavailable; try again in a few seconds' },
};

/** A lifetime in words: "1 hour", "24 hours", "30 minutes". */
export function duration(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** A plan's id in a path (`{id}`, `{subscriptionPlanId}`). */
export const planIdParam = {
  description: 'The subscriptionPlanId returned at link creation. A malformed id is answered 404.',
  pattern: idPattern('sub'),
  example: IDS.plan,
};

/** The errors of reading one plan. */
export const PLAN_ERRORS = ['unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_error'] as const satisfies ErrorCode[];

/** The errors of an extension endpoint that changes a plan or a transaction (docs/billing.md). */
export const CHANGE_ERRORS = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
] as const satisfies ErrorCode[];

/** The rate-limit sentence of every merchant endpoint in the shared bucket. */
export const SHARED_LIMIT = `Rate limit: ${LIMITS.merchant} requests a minute per api_key, shared with the other merchant endpoints except link creation and plan status.`;

const EXAMPLE_REQUEST_ID = 'req_4fK9wQz2LmN7xR1tVb8cYd3e';

function errorExample(code: ErrorCode, example: ErrorExample = ERROR_EXAMPLES[code]) {
  return { error: { code, message: example.message, ...(example.details ? { details: example.details } : {}), requestId: EXAMPLE_REQUEST_ID } };
}

const header = (description: string, schema: JsonObject, example: unknown) => ({ description, schema, example });

export const HEADERS = {
  'X-Request-Id': header(
    'Identifies this request in our logs; quote it to support. A valid X-Request-Id you send (1 to 128 letters, digits, `.`, `_`, `:` or `-`) is echoed back.',
    { type: 'string' },
    EXAMPLE_REQUEST_ID,
  ),
  'RateLimit-Limit': header(
    'Requests allowed per minute on this endpoint, per api_key (per client IP address for the checkout session)',
    { type: 'integer' },
    60,
  ),
  'RateLimit-Remaining': header('Requests left in the current window, this one counted', { type: 'integer' }, 59),
  'RateLimit-Reset': header('Seconds until the window frees up', { type: 'integer' }, 42),
  'Retry-After': header('Seconds to wait before trying again', { type: 'integer' }, 42),
  'Idempotent-Replayed': header(
    'Present (`true`) when this is the stored reply of an earlier request with the same Idempotency-Key',
    { type: 'string', enum: ['true'] },
    'true',
  ),
  'ServicePay-Version': header(
    'The API version this reply is in: the request\'s ServicePay-Version, else your pinned version',
    { type: 'string', enum: [...API_VERSIONS] },
    LATEST_API_VERSION,
  ),
} as const;

type HeaderName = keyof typeof HEADERS;

const headerRefs = (...names: HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** Headers of a reply: always the request id; the RateLimit-* trio on a rate-limited endpoint. */
export const replyHeaders = (rateLimited: boolean, ...extra: HeaderName[]) =>
  headerRefs('X-Request-Id', ...(rateLimited ? RATE_LIMIT_HEADERS : []), ...extra);

export const SECURITY_SCHEMES = {
  merchantKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: '<api_key>:<api_secret>',
    description:
      'Your api_key and api_secret joined by a colon: `Authorization: Bearer pk_test_…:sk_test_…`. Find them in the merchant portal under Settings, API. ' +
      'Call from your server only: the secret never goes into a web page or an app.',
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description: "The deployment's ADMIN_API_TOKEN. While it is unset the operator API answers 404.",
  },
} as const;

interface ErrorReplyOptions {
  /** Whether the endpoint is rate limited: every reply after authentication carries RateLimit-*. */
  rateLimited: boolean;
  /** Examples closer to the operation than the generic ones. */
  examples?: Partial<Record<ErrorCode, ErrorExample>>;
}

/** One reply per HTTP status, with an example of each code that status carries. */
export function errorReplies(declared: readonly ErrorCode[], options: ErrorReplyOptions): Record<string, JsonObject> {
  // Whatever can fail on our side can also find the database out of reach: a 503 to retry.
  const codes = declared.includes('internal_error') ? [...declared, 'service_unavailable' as const] : declared;
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, sameStatus]) => [
      String(status),
      {
        description: sameStatus.map((code) => `\`${code}\`: ${ERROR_MEANING[code]}`).join('. '),
        // No key was identified on a 401, so no bucket was counted; a 500 or 503 escapes the limiter's headers.
        headers: replyHeaders(
          options.rateLimited && status !== 401 && status !== 500 && status !== 503,
          ...(status === 429 || status === 503 ? (['Retry-After'] as const) : []),
        ),
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            examples: Object.fromEntries(
              sameStatus.map((code) => [code, { summary: code, value: errorExample(code, options.examples?.[code] ?? ERROR_EXAMPLES[code]) }]),
            ),
          },
        },
      },
    ]),
  );
}
