import type { ErrorBody } from './generated.js';
export type ErrorCode = ErrorBody['error']['code'];
export type ErrorDetail = NonNullable<ErrorBody['error']['details']>[number];
/** Any error this client throws. */
export declare class ServicePayError extends Error {
    name: string;
}
/**
 * The API answered with an error (every 4xx and 5xx has the same body). Branch on `code`; quote
 * `requestId` to support.
 */
export declare class ServicePayApiError extends ServicePayError {
    name: string;
    readonly status: number;
    readonly code: ErrorCode;
    readonly requestId: string | undefined;
    readonly details: ErrorDetail[] | undefined;
    /** Seconds the API asked to wait (429), when it said. */
    readonly retryAfter: number | undefined;
    constructor(status: number, body: Partial<ErrorBody['error']> | undefined, headers: Headers);
}
/** 401: a missing or wrong key, a revoked key, or an inactive merchant. */
export declare class AuthenticationError extends ServicePayApiError {
    name: string;
}
/** 400 invalid_request: `details` names each bad field. */
export declare class InvalidRequestError extends ServicePayApiError {
    name: string;
}
/** 403: the resource belongs to another merchant. */
export declare class PermissionError extends ServicePayApiError {
    name: string;
}
/** 404: no such resource. */
export declare class NotFoundError extends ServicePayApiError {
    name: string;
}
/** 409: a conflict (a duplicate open plan, a state that refuses the change, an Idempotency-Key reused with another body). */
export declare class ConflictError extends ServicePayApiError {
    name: string;
}
/** 429: over the rate limit, after the client's own retries. */
export declare class RateLimitError extends ServicePayApiError {
    name: string;
}
/** The error class of an API error reply. */
export declare function apiError(status: number, body: Partial<ErrorBody['error']> | undefined, headers: Headers): ServicePayApiError;
/** The request could not be sent, or no reply came (after the client's retries). */
export declare class ConnectionError extends ServicePayError {
    name: string;
}
/** A call was made with an argument of the wrong type or shape; nothing was sent. */
export declare class ArgumentError extends ServicePayError {
    name: string;
}
/** A webhook did not verify: `reason` says why. Answer it 401 and do not act on it. */
export declare class WebhookVerificationError extends ServicePayError {
    name: string;
}
