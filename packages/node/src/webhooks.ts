import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.js';
import type { SubscriptionLifecycleEvent, WebhookEvent } from './generated.js';

// Verifying a webhook (the API's docs: Webhooks). The signature is the lowercase hex HMAC-SHA256 of
// the raw body, the bytes as they arrived, keyed with your webhook secret; it is compared in
// constant time. A body parsed and serialized again is other bytes, so a parsed object is
// refused with a message that says so rather than failing to verify in silence.

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

const DEFAULT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

function rawBytes(rawBody: unknown): Buffer {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const what = rawBody === null ? 'null' : Array.isArray(rawBody) ? 'an array' : typeof rawBody === 'object' ? 'a parsed object' : typeof rawBody;
  throw new WebhookVerificationError(
    `webhooks: the body must be the raw request body (a string or a Buffer, as it arrived), not ${what}. ` +
      'A body parsed and serialized again is other bytes and cannot verify: read the raw body (e.g. express.raw({ type: "application/json" }), or await request.text()) and pass that.',
  );
}

/** The X-Webhook-Signature header, or it and X-Webhook-Signature-Next (sent while the secret is rolled). */
export type Signatures = string | readonly (string | null | undefined)[] | null | undefined;

/**
 * Whether `signature` (the X-Webhook-Signature header, or it and X-Webhook-Signature-Next while
 * the merchant rolls its secret) is the HMAC-SHA256 of `rawBody` with `secret`, compared in
 * constant time: either header verifying is enough. Throws only for a `rawBody` that is not raw
 * (a parsed object), which can never verify.
 */
export function verify(rawBody: RawBody, signature: Signatures, secret: string): boolean {
  const body = rawBytes(rawBody);
  if (typeof secret !== 'string' || secret.length === 0) throw new WebhookVerificationError('webhooks: the webhook secret is missing');
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = typeof signature === 'string' ? [signature] : Array.isArray(signature) ? signature : [];
  let ok = false;
  for (const one of given) {
    if (typeof one === 'string' && /^[0-9a-f]{64}$/.test(one) && timingSafeEqual(expected, Buffer.from(one, 'hex'))) ok = true;
  }
  return ok;
}

/**
 * The event in `rawBody`, once its signature verifies and its timestamp is fresh; otherwise a
 * WebhookVerificationError saying why (answer it 401 and do nothing). De-duplicate on the
 * X-Webhook-Id header: the same event may arrive more than once.
 */
export function parse(rawBody: RawBody, signature: Signatures, secret: string, options: VerifyOptions = {}): ServicePayEvent {
  if (!verify(rawBody, signature, secret)) {
    throw new WebhookVerificationError('webhooks: the signature does not match this body and secret (check the secret, and that the body is the raw bytes)');
  }
  let event: ServicePayEvent;
  try {
    event = JSON.parse(rawBytes(rawBody).toString('utf8')) as ServicePayEvent;
  } catch {
    throw new WebhookVerificationError('webhooks: the body is not JSON');
  }
  if (!event || typeof event !== 'object' || typeof event.event !== 'string' || typeof event.timestamp !== 'number') {
    throw new WebhookVerificationError('webhooks: the body is not a ServicePay event');
  }
  const age = (options.now ?? Date.now()) - event.timestamp;
  if (age > (options.maxAgeMs ?? DEFAULT_MAX_AGE_MS)) throw new WebhookVerificationError(`webhooks: the event is too old (${Math.round(age / 1000)} s); refuse replays`);
  return event;
}
