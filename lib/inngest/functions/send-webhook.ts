import { getDb } from '@/db/client';
import { deliverJob, WEBHOOK_CONCURRENCY_PER_MERCHANT } from '@/lib/webhooks/deliver';
import { inngest, webhookEventCreated, webhookEventResent, webhookRetryDue } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// Delivers one outbox event (docs/webhooks.md#delivery) with the domain's deliverJob, as the
// in-process queue does. Inngest's own retries are off: a retried step could POST twice. A
// merchant who turned webhook retries on (docs/webhooks.md#retries) has a failed delivery tried
// again on the schedule: the run sleeps until each retry is due (a sleeping run holds no
// concurrency slot) and delivers it in a step of its own, until one succeeds or the schedule ends.
// The database holds the schedule too, so the sweeper sends a retry this run did not (a run
// cancelled, a deployment without it); a retry's lease keeps either to one POST. Concurrency is
// keyed per merchant, so a merchant whose receiver hangs for 10 s holds up only its own events.

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
