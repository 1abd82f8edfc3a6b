import type { SubscriptionLifecycleEvent, WebhookEvent } from './generated.js';
/** A charge event or, for a merchant who chose them, a lifecycle event. */
export type ServicePayEvent = WebhookEvent | SubscriptionLifecycleEvent;
/** The raw body as received: a string, a Buffer or a Uint8Array, never a parsed object. */
export type RawBody = string | Uint8Array;
export interface VerifyOptions {
    /** How old a body may be, by its `timestamp` (parse only). A resend keeps the first timestamp. Default 24 h. */
    maxAgeMs?: number;
    /** The time to judge freshness by (tests). */
    now?: number;
}
/**
 * Whether `signature` (the X-Webhook-Signature header) is the HMAC-SHA256 of `rawBody` with
 * `secret`, compared in constant time. Throws only for a `rawBody` that is not raw (a parsed
 * object), which can never verify.
 */
export declare function verify(rawBody: RawBody, signature: string | null | undefined, secret: string): boolean;
/**
 * The event in `rawBody`, once its signature verifies and its timestamp is fresh; otherwise a
 * WebhookVerificationError saying why (answer it 401 and do nothing). De-duplicate on the
 * X-Webhook-Id header: the same event may arrive more than once.
 */
export declare function parse(rawBody: RawBody, signature: string | null | undefined, secret: string, options?: VerifyOptions): ServicePayEvent;
