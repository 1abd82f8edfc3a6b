import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';

// A ServicePay webhook receiver for Node.js. Mount it at your webhook URL (HTTPS).

/** Resends carry the original timestamp, so this is also how old a resend may be. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
const MAX_BODY_BYTES = 64 * 1024;

/** A charge's final outcome (docs/webhooks.md#payload): every merchant receives these four. */
export interface ChargeEvent {
  event: 'subscription.charge.approved' | 'subscription.charge.declined' | 'subscription.charge.error' | 'subscription.charge.voided';
  data: {
    subscriptionTransactionId: string;
    subscriptionPlanId: string;
    externalReference: string;
    /** null only for a charge the processor never received. */
    transactionId: string | null;
    amount: number;
    status: 'APPROVED' | 'DECLINED' | 'ERROR' | 'VOIDED';
    chargeDate: number;
  };
  timestamp: number;
}

/** A plan's lifecycle: sent only once chosen in the webhook settings (docs/customers.md). */
export interface LifecycleEvent {
  event:
    | 'subscription.activated'
    | 'subscription.paused'
    | 'subscription.resumed'
    | 'subscription.cancelled'
    | 'subscription.payment_method_updated';
  data: {
    subscriptionPlanId: string;
    externalReference: string;
    /** The plan status after the change. */
    status: 'PENDING_ACTIVATION' | 'ACTIVE' | 'PAUSED' | 'CANCELLED' | 'COMPLETED';
    /** Epoch ms of the next renewal attempt; null when none is scheduled. */
    nextChargeDate: number | null;
    /** subscription.cancelled only. */
    reason?: string;
  };
  timestamp: number;
}

export type ServicePayEvent = ChargeEvent | LifecycleEvent;

/** True when `signature` is the HMAC-SHA256 of the raw body with your secret. Never throws. */
export function isSignedByServicePay(rawBody: Buffer, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

async function readRawBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Verifies, de-duplicates and acknowledges each webhook, then hands it to `handle` after the
 * reply (ServicePay waits at most 10 s and never retries). `seen` must remember ids for at
 * least MAX_AGE_MS: use your database in production.
 */
export function servicePayWebhooks(options: {
  secret: string;
  handle: (event: ServicePayEvent) => Promise<void>;
  seen?: Set<string>;
}): RequestListener {
  const seen = options.seen ?? new Set<string>();
  return async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const body = await readRawBody(req);
    if (!body) return void res.writeHead(413).end();
    const signature = req.headers['x-webhook-signature'];
    if (!isSignedByServicePay(body, typeof signature === 'string' ? signature : undefined, options.secret)) {
      return void res.writeHead(401).end('invalid signature');
    }
    const event = JSON.parse(body.toString('utf8')) as ServicePayEvent;
    if (!(Math.abs(Date.now() - event.timestamp) <= MAX_AGE_MS)) return void res.writeHead(400).end('stale event');
    const id = String(req.headers['x-webhook-id'] ?? '');
    if (seen.has(id)) return void res.writeHead(200).end('duplicate');
    seen.add(id);
    res.writeHead(200).end('ok');
    await options.handle(event).catch((error) => console.error('webhook handler failed', id, error));
  };
}
