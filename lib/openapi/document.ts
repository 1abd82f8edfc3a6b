import { ERROR_STATUS, type ErrorCode } from '@/lib/api/errors';
import { env } from '@/lib/env';
import { LIMITS } from '@/lib/rate-limit/limits';
import { checkoutPaths } from './checkout-paths';
import { ERROR_MEANING, errorBodySchema, HEADERS, SECURITY_SCHEMES } from './components';
import { type JsonObject, type PathItems, SchemaComponents } from './json-schema';
import { customerPaths } from './customer-paths';
import { merchantPaths } from './merchant-paths';
import { webhookEventPaths } from './webhook-event-paths';
import { operatorPaths } from './operator-paths';
import { processorPaths } from './processor-paths';
import { webhooks, WEBHOOKS_DESCRIPTION } from './webhooks';

// The OpenAPI 3.1 document served at /api/openapi.json and rendered at /docs, generated from the
// zod schemas the handlers use. Built once per process: it depends only on code and settings.

export const API_VERSION = '1.0.0';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: JsonObject;
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: PathItems;
  webhooks: Record<string, JsonObject>;
  components: { schemas: Record<string, JsonObject> } & JsonObject;
}

export interface DocumentSettings {
  /** The deployment's public base URL (APP_URL). */
  appUrl: string;
  checkoutTokenTtlSeconds: number;
}

const errorTable = [
  '| code | HTTP | meaning |',
  '|---|---|---|',
  ...(Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => `| \`${code}\` | ${ERROR_STATUS[code]} | ${ERROR_MEANING[code]} |`),
].join('\n');

const DESCRIPTION = `Payment links with subscription plans, in Colombian pesos.

Your server creates a payment link; the customer pays in our checkout, by following the link's \`url\` or in the widget embedded in your site. You learn the result from a signed **webhook** (recommended) or by **polling** the plan status. The widget's \`onSuccess\` and \`onError\` callbacks run in the customer's browser: confirm through a webhook or polling before you activate anything.

## Amounts
Every amount is a whole number of **cents of COP**: \`150000\` is $1.500 COP. Never a decimal, never a string.

## Authentication
Calls to \`/merchants/…\` carry \`Authorization: Bearer <api_key>:<api_secret>\`: your api_key and api_secret, from the merchant portal (Settings, API), joined by a colon. Call from your server only; the secret never goes into a web page or an app. A missing or wrong key, a revoked key or an inactive merchant is a \`401\`; a plan of another account is a \`403\`.

## Errors
Every error reply has the same JSON body. Branch on \`code\`; \`message\` is for people and may change. \`details\` appears only with \`invalid_request\`, one entry per invalid field.

\`\`\`json
{ "error": { "code": "invalid_request", "message": "customer.email: must be an e-mail address",
             "details": [{ "path": "customer.email", "message": "must be an e-mail address" }],
             "requestId": "req_4fK9wQz2LmN7xR1tVb8cYd3e" } }
\`\`\`

${errorTable}

Every reply of the merchant, checkout and operator endpoints carries an \`X-Request-Id\` header (the same value as \`requestId\`): quote it when you contact support.

## Rate limits
Per api_key, over a sliding minute: link creation ${LIMITS['create-link']}, plan status ${LIMITS['plan-status']}, every other merchant endpoint ${LIMITS.merchant} (one shared allowance); the checkout session, ${LIMITS['checkout-session']} per client IP address. Their replies carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds), except a \`401\` (no key was identified); over the limit the reply is \`429 rate_limited\` with \`Retry-After\` (seconds).

## Webhooks
See the Webhooks section: what we send to your server, and how to check its signature.`;

const TAGS = [
  { name: 'Payment links', description: 'Create the link a customer pays with. Creating it also creates the subscription plan.' },
  { name: 'Subscription plans', description: 'Where a plan stands (status, last transaction, next charge), and pausing, resuming or cancelling it.' },
  { name: 'Transactions', description: 'The charges of a plan: its first payment and its monthly renewals.' },
  { name: 'Checkout', description: 'What the hosted checkout and the embedded widget read, by token, with no credentials.' },
  { name: 'Webhooks', description: WEBHOOKS_DESCRIPTION },
  { name: 'Operators', description: "For the service's operators, with the deployment's operator token; not for merchants." },
  { name: 'Service', description: 'Whether the service is up.' },
];

export function buildOpenApiDocument(settings: DocumentSettings): OpenApiDocument {
  const components = new SchemaComponents();
  components.schema(errorBodySchema, 'output');
  const paths = {
    ...merchantPaths(components, settings),
    ...customerPaths(components, settings.appUrl),
    ...webhookEventPaths(components, settings.appUrl),
    ...checkoutPaths(components, settings.appUrl),
    ...operatorPaths(components, settings.appUrl),
    ...processorPaths(settings.appUrl),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'ServicePay',
      version: API_VERSION,
      summary: 'Payment links with subscription plans, in Colombian pesos (COP)',
      description: DESCRIPTION,
    },
    servers: [{ url: settings.appUrl, description: 'This deployment' }],
    tags: TAGS,
    paths,
    webhooks: webhooks(components),
    components: { schemas: components.schemas, headers: HEADERS, securitySchemes: SECURITY_SCHEMES },
  };
}

let cached: OpenApiDocument | undefined;

/** This deployment's document, built on first use. */
export function openApiDocument(): OpenApiDocument {
  const { APP_URL, CHECKOUT_TOKEN_TTL_SECONDS } = env();
  cached ??= buildOpenApiDocument({ appUrl: APP_URL, checkoutTokenTtlSeconds: CHECKOUT_TOKEN_TTL_SECONDS });
  return cached;
}
