import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.js';
const DEFAULT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
function rawBytes(rawBody) {
    if (typeof rawBody === 'string')
        return Buffer.from(rawBody, 'utf8');
    if (rawBody instanceof Uint8Array)
        return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
    const what = rawBody === null ? 'null' : Array.isArray(rawBody) ? 'an array' : typeof rawBody === 'object' ? 'a parsed object' : typeof rawBody;
    throw new WebhookVerificationError(`webhooks: the body must be the raw request body (a string or a Buffer, as it arrived), not ${what}. ` +
        'A body parsed and serialized again is other bytes and cannot verify: read the raw body (e.g. express.raw({ type: "application/json" }), or await request.text()) and pass that.');
}
/**
 * Whether `signature` (the X-Webhook-Signature header) is the HMAC-SHA256 of `rawBody` with
 * `secret`, compared in constant time. Throws only for a `rawBody` that is not raw (a parsed
 * object), which can never verify.
 */
export function verify(rawBody, signature, secret) {
    const body = rawBytes(rawBody);
    if (typeof secret !== 'string' || secret.length === 0)
        throw new WebhookVerificationError('webhooks: the webhook secret is missing');
    if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature))
        return false;
    const expected = createHmac('sha256', secret).update(body).digest();
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
/**
 * The event in `rawBody`, once its signature verifies and its timestamp is fresh; otherwise a
 * WebhookVerificationError saying why (answer it 401 and do nothing). De-duplicate on the
 * X-Webhook-Id header: the same event may arrive more than once.
 */
export function parse(rawBody, signature, secret, options = {}) {
    if (!verify(rawBody, signature, secret)) {
        throw new WebhookVerificationError('webhooks: the signature does not match this body and secret (check the secret, and that the body is the raw bytes)');
    }
    let event;
    try {
        event = JSON.parse(rawBytes(rawBody).toString('utf8'));
    }
    catch {
        throw new WebhookVerificationError('webhooks: the body is not JSON');
    }
    if (!event || typeof event !== 'object' || typeof event.event !== 'string' || typeof event.timestamp !== 'number') {
        throw new WebhookVerificationError('webhooks: the body is not a ServicePay event');
    }
    const age = (options.now ?? Date.now()) - event.timestamp;
    if (age > (options.maxAgeMs ?? DEFAULT_MAX_AGE_MS))
        throw new WebhookVerificationError(`webhooks: the event is too old (${Math.round(age / 1000)} s); refuse replays`);
    return event;
}
