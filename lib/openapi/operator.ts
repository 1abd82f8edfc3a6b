import type { ErrorCode } from '@/lib/api/errors';
import type { ErrorExample } from '@/lib/api/operation';

// What the operator API's declarations (app/admin/**/operation.ts) share: their errors, with
// examples of their own, and the rules of a merchant's fields.

export const OPERATOR_ERRORS = ['invalid_request', 'unauthorized', 'not_found', 'payload_too_large', 'unsupported_media_type', 'internal_error'] as const satisfies ErrorCode[];

export const OPERATOR_ERROR_EXAMPLES: Partial<Record<ErrorCode, ErrorExample>> = {
  invalid_request: {
    message: 'webhookUrl: must begin with https:// (HTTP endpoints are rejected)',
    details: [{ path: 'webhookUrl', message: 'must begin with https:// (HTTP endpoints are rejected)' }],
  },
  unauthorized: { message: 'A valid operator token is required' },
  not_found: { message: 'No merchant with this id' },
};

export const MERCHANT_FIELDS =
  '`webhookUrl` must be `https://`. `webhookSecret` is at least 32 printable characters. `allowedDomains` lists the sites that may embed the checkout, as `host[:port]` ' +
  '(`shop.example.com`, `*.example.com` for subdomains only, `localhost:3000`), without scheme or path.';
