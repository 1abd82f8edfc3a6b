import { createHmac } from 'node:crypto';

// Lowercase hex HMAC-SHA256 of the raw body, keyed with the Webhook Secret (docs/webhooks.md#signature).

export function signWebhookBody(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

const WEBHOOK_USER_AGENT = 'ServicePay-Webhooks/1';

/** During a roll: the one being replaced, and until when it signs. */
export interface SigningSecrets {
  webhookSecret: string;
  webhookSecretPrevious?: string | null;
  webhookSecretRolledUntil?: Date | null;
}

/** During a roll X-Webhook-Signature is the previous secret's and X-Webhook-Signature-Next the new one's. */
export function webhookHeaders(event: { id: string; body: string }, given: SigningSecrets | string, now: Date = new Date()): Record<string, string> {
  const secrets = typeof given === 'string' ? { webhookSecret: given } : given;
  const rolling = secrets.webhookSecretPrevious && secrets.webhookSecretRolledUntil && secrets.webhookSecretRolledUntil > now;
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'X-Webhook-Id': event.id,
    'X-Webhook-Signature': signWebhookBody(event.body, rolling ? secrets.webhookSecretPrevious! : secrets.webhookSecret),
    ...(rolling ? { 'X-Webhook-Signature-Next': signWebhookBody(event.body, secrets.webhookSecret) } : {}),
  };
}
