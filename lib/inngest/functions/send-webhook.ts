import { getDb } from '@/db/client';
import { deliverJob, WEBHOOK_CONCURRENCY_PER_MERCHANT } from '@/lib/webhooks/deliver';
import { inngest, webhookEventCreated, webhookEventResent, webhookRetryDue } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// Delivers one outbox event (docs/webhooks.md#delivery), as the in-process queue does. Inngest's
// retries are off (a retried step could POST twice); a merchant's own retries sleep until due.
// Concurrency is per merchant, so a slow receiver holds up only its own events.

export { WEBHOOK_CONCURRENCY_PER_MERCHANT };

export const sendWebhookFunction = inngest.createFunction(
  {
    id: INNGEST_FUNCTION_IDS.sendWebhook,
    retries: 0,
    concurrency: { key: 'event.data.merchantId', limit: WEBHOOK_CONCURRENCY_PER_MERCHANT },
    triggers: [webhookEventCreated, webhookEventResent, webhookRetryDue],
  },
  async ({ event, step }) => {
    const { eventId } = event.data;
    const kind = event.name === webhookEventResent.name ? 'resent' : event.name === webhookRetryDue.name ? 'retry' : 'created';
    const dueAt = 'dueAt' in event.data ? event.data.dueAt : undefined;
    let result = await step.run('deliver', async () => deliverJob(await getDb(), { eventId, kind, dueAt }));
    for (let n = 1; result.nextRetryAt; n++) {
      const retryAt = result.nextRetryAt;
      await step.sleepUntil(`wait-for-retry-${n}`, retryAt);
      result = await step.run(`retry-${n}`, async () => deliverJob(await getDb(), { eventId, kind: 'retry', dueAt: retryAt }));
    }
    return result;
  },
);
