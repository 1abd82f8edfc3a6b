import { createHmac } from 'node:crypto';

// docs/webhooks.md#signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the merchant's Webhook Secret.

export function signWebhookBody(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

const WEBHOOK_USER_AGENT = 'ServicePay-Webhooks/1';

/** The headers of every delivery of an event (docs/webhooks.md#delivery). */
export function webhookHeaders(event: { id: string; body: string }, secret: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'X-Webhook-Id': event.id,
    'X-Webhook-Signature': signWebhookBody(event.body, secret),
  };
}
