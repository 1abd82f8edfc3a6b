import { getDb } from '@/db/client';
import { deliverEvent } from '@/lib/webhooks/deliver';
import { inngest, webhookEventCreated, webhookEventResent } from '../client';

// Delivers one outbox event (DECISIONS 8). No retries: SPEC 6 says a failed delivery is not
// retried, and a retried step could POST twice. Concurrency is keyed per merchant, so a merchant
// whose receiver hangs for 10 s holds up only its own events.

export const WEBHOOK_CONCURRENCY_PER_MERCHANT = 5;

export interface SendWebhookInput {
  event: { name: string; data: { eventId: string; merchantId: string } };
  step: { run: <T>(id: string, fn: () => Promise<T>) => Promise<unknown> };
}

/** The function's body, shared with the in-process path (lib/webhooks/in-process.ts). */
export async function sendWebhook({ event, step }: SendWebhookInput) {
  const trigger = event.name === webhookEventResent.name ? 'manual' : 'automatic';
  return step.run('deliver', async () => {
    const result = await deliverEvent(await getDb(), event.data.eventId, { trigger });
    return result.status === 'sent'
      ? { status: result.status, ok: result.attempt.ok, statusCode: result.attempt.statusCode, error: result.attempt.error }
      : { status: result.status };
  });
}

export const sendWebhookFunction = inngest.createFunction(
  {
    id: 'send-webhook',
    retries: 0,
    concurrency: { key: 'event.data.merchantId', limit: WEBHOOK_CONCURRENCY_PER_MERCHANT },
    triggers: [webhookEventCreated, webhookEventResent],
  },
  sendWebhook,
);
