import type { ErrorBody } from './generated.js';

export type ErrorCode = ErrorBody['error']['code'];
export type ErrorDetail = NonNullable<ErrorBody['error']['details']>[number];

/** Any error this client throws. */
export class ServicePayError extends Error {
  override name = 'ServicePayError';
}

/**
 * The API answered with an error (every 4xx and 5xx has the same body). Branch on `code`; quote
 * `requestId` to support.
 */
export class ServicePayApiError extends ServicePayError {
  override name = 'ServicePayApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  /** Seconds the API asked to wait (429), when it said. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: Partial<ErrorBody['error']> | undefined, headers: Headers) {
    const requestId = body?.requestId ?? headers.get('x-request-id') ?? undefined;
    super(`${body?.message ?? `HTTP ${status}`}${requestId ? ` (request ${requestId})` : ''}`);
    this.status = status;
    this.code = body?.code ?? (status >= 500 ? 'internal_error' : 'invalid_request');
    this.requestId = requestId;
    this.details = body?.details;
    const retryAfter = Number(headers.get('retry-after'));
    this.retryAfter = Number.isFinite(retryAfter) && headers.has('retry-after') ? retryAfter : undefined;
  }
}

/** 401: a missing or wrong key, a revoked key, or an inactive merchant. */
export class AuthenticationError extends ServicePayApiError {
  override name = 'AuthenticationError';
}
/** 400 invalid_request: `details` names each bad field. */
export class InvalidRequestError extends ServicePayApiError {
  override name = 'InvalidRequestError';
}
/** 403: the resource belongs to another merchant. */
export class PermissionError extends ServicePayApiError {
  override name = 'PermissionError';
}
/** 404: no such resource. */
export class NotFoundError extends ServicePayApiError {
  override name = 'NotFoundError';
}
/** 409: a conflict (a duplicate open plan, a state that refuses the change, an Idempotency-Key reused with another body). */
export class ConflictError extends ServicePayApiError {
  override name = 'ConflictError';
}
/** 429: over the rate limit, after the client's own retries. */
export class RateLimitError extends ServicePayApiError {
  override name = 'RateLimitError';
}

/** The error class of an API error reply. */
export function apiError(status: number, body: Partial<ErrorBody['error']> | undefined, headers: Headers): ServicePayApiError {
  const Kind =
    status === 401
      ? AuthenticationError
      : status === 403
        ? PermissionError
        : status === 404
          ? NotFoundError
          : status === 409
            ? ConflictError
            : status === 429
              ? RateLimitError
              : status === 400
                ? InvalidRequestError
                : ServicePayApiError;
  return new Kind(status, body, headers);
}

/** The request could not be sent, or no reply came (after the client's retries). */
export class ConnectionError extends ServicePayError {
  override name = 'ConnectionError';
}

/** A call was made with an argument of the wrong type or shape; nothing was sent. */
export class ArgumentError extends ServicePayError {
  override name = 'ArgumentError';
}

/** A webhook did not verify: `reason` says why. Answer it 401 and do not act on it. */
export class WebhookVerificationError extends ServicePayError {
  override name = 'WebhookVerificationError';
}
