import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { getDb } from '@/db/client';
import { getEventForMerchant } from '@/db/queries/activity';
import { getMerchant } from '@/db/queries/merchants';
import { webhookAttempts } from '@/db/schema';
import { env } from '@/lib/env';

// ADAPTER (issue 8 → issue 5): the two webhook actions the portal needs. The signatures below are
// what the portal calls; at merge their bodies are rewired to lib/webhooks/delivery.ts (signing,
// connect-time address guards, attempt recording). Until then they make a minimal signed POST
// (DECISIONS 8 headers, 10 s timeout, no redirects) and refuse literal private addresses only.

export interface TestEventReply {
  statusCode: number | null;
  ok: boolean;
  error: string | null;
  responseExcerpt: string | null;
  latencyMs: number;
}

const TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 2048;

function literalPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return /^(0|10|127|169\.254|172\.(1[6-9]|2\d|3[01])|192\.168|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7]))\./.test(host);
  if (isIP(host) === 6) return /^(::1?$|f[cd]|fe[89ab])/i.test(host);
  return false;
}

async function postSigned(url: string, secret: string, body: string, eventId: string): Promise<TestEventReply> {
  const started = performance.now();
  const done = (reply: Omit<TestEventReply, 'latencyMs'>) => ({ ...reply, latencyMs: Math.round(performance.now() - started) });
  if (!env().WEBHOOK_ALLOW_PRIVATE_NETWORK && literalPrivateHost(new URL(url).hostname)) {
    return done({ statusCode: null, ok: false, error: 'refused: private or loopback address', responseExcerpt: null });
  }
  try {
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'ServicePay-Webhooks/1',
        'X-Webhook-Id': eventId,
        'X-Webhook-Signature': createHmac('sha256', secret).update(body, 'utf8').digest('hex'),
      },
      body,
    });
    const text = Buffer.from(await res.arrayBuffer()).subarray(0, EXCERPT_BYTES).toString('utf8');
    return done({ statusCode: res.status, ok: res.status >= 200 && res.status < 300, error: null, responseExcerpt: text });
  } catch (error) {
    const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return done({ statusCode: null, ok: false, error: reason, responseExcerpt: null });
  }
}

async function merchantEndpoint(merchantId: string) {
  const merchant = await getMerchant(await getDb(), merchantId);
  if (!merchant?.webhookUrl) throw new Error('no webhook URL configured');
  return { url: merchant.webhookUrl, secret: merchant.webhookSecret };
}

/** Sends a signed test event to the merchant's webhook URL and answers the reply. Records nothing. */
export async function sendTestEvent(merchantId: string): Promise<TestEventReply> {
  const { url, secret } = await merchantEndpoint(merchantId);
  const eventId = 'evt_test';
  const body = JSON.stringify({ event: 'servicepay.test', data: { message: 'Test event from the ServicePay portal' }, timestamp: Date.now() });
  return postSigned(url, secret, body, eventId);
}

/** Sends one of the merchant's events again, the same bytes and id, and records the attempt as manual. */
export async function resendEvent(merchantId: string, eventId: string): Promise<void> {
  const db = await getDb();
  const event = await getEventForMerchant(db, { merchantId, eventId });
  if (!event) throw new Error(`event ${eventId} is not one of merchant ${merchantId}`);
  const { url, secret } = await merchantEndpoint(merchantId);
  const attemptedAt = new Date();
  const reply = await postSigned(url, secret, event.body, event.id);
  await db.insert(webhookAttempts).values({ eventId, trigger: 'manual', url, attemptedAt, ...reply });
}
