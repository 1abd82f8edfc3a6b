import type { z } from 'zod';

// One table of error codes and their HTTP statuses (docs/api.md#conventions).
export const ERROR_STATUS = {
  invalid_request: 400,
  session_expired: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_key_reused: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

interface ErrorDetail {
  path: string;
  message: string;
}

/** Its constructor never runs: an answer needs no stack. */
const Answer = function Answer() {} as unknown as new () => Error;
Answer.prototype = Error.prototype;

export class ApiError extends Answer {
  readonly status: number;
  override readonly message: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super();
    this.name = 'ApiError';
    this.message = message;
    this.status = ERROR_STATUS[code];
  }
}

/** A restart takes a few. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function serviceUnavailable(): ApiError {
  return new ApiError('service_unavailable', 'The service is briefly unavailable; try again in a few seconds', {
    headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  });
}

/** Names the scheme, as RFC 9110 asks of every 401. */
export function bearerUnauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

export function validationError(error: z.ZodError): ApiError {
  // The first problem zod found with each field.
  const byPath = new Map<string, ErrorDetail>();
  for (const issue of error.issues) {
    const path = issuePath(issue.path);
    if (!byPath.has(path)) byPath.set(path, { path, message: issue.message });
  }
  const details = [...byPath.values()];
  const [first] = details;
  const message =
    details.length === 1 && first
      ? first.path
        ? `${first.path}: ${first.message}`
        : first.message
      : `${details.length} fields are invalid: ${details.map((d) => d.path || '(body)').join(', ')}`;
  return new ApiError('invalid_request', message, { details });
}

export function errorBody(error: ApiError, requestId: string) {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.options.details ? { details: error.options.details } : {}),
      requestId,
    },
  };
}
