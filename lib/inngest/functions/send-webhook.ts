import { getDb } from '@/db/client';
import { deliverJob, WEBHOOK_CONCURRENCY_PER_MERCHANT } from '@/lib/webhooks/deliver';
import { inngest, webhookEventCreated, webhookEventResent } from '../client';

// Delivers one outbox event (docs/webhooks.md#delivery) with the domain's deliverJob, as the in-process queue
// does. No retries: docs/webhooks.md#events says a failed delivery is not retried, and a retried step could POST
// twice. Concurrency is keyed per merchant, so a merchant whose receiver hangs for 10 s holds up
// only its own events.

export { WEBHOOK_CONCURRENCY_PER_MERCHANT };

export const sendWebhookFunction = inngest.createFunction(
  {
    id: 'send-webhook',
    retries: 0,
    concurrency: { key: 'event.data.merchantId', limit: WEBHOOK_CONCURRENCY_PER_MERCHANT },
    triggers: [webhookEventCreated, webhookEventResent],
  },
  async ({ event, step }) => {
    const kind = event.name === webhookEventResent.name ? 'resent' : 'created';
    return step.run('deliver', async () => deliverJob(await getDb(), { eventId: event.data.eventId, kind }));
  },
);
