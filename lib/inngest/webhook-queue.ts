import type { WebhookQueue } from '@/lib/webhooks/queue';
import { inngest, webhookEventCreated, webhookEventResent, webhookRetryDue } from './client';

// The webhook queue when Inngest is configured (installed at start-up by lib/runners.ts): one
// Inngest event per job, which the send-webhook function delivers.

export const inngestWebhookQueue: WebhookQueue = {
  async enqueue(jobs) {
    if (jobs.length === 0) return;
    await inngest.send(
      jobs.map(({ kind, eventId, merchantId, dueAt }) =>
        kind === 'resent'
          ? webhookEventResent.create({ eventId, merchantId })
          : kind === 'retry'
            ? webhookRetryDue.create({ eventId, merchantId, dueAt: dueAt! }, { id: `retry-${eventId}-${dueAt}` })
            : // A stable id: Inngest ignores the same event sent twice. The sweeper's id differs from
            // the first hand-off's, so an event whose first run died is sent again; its lease keeps
            // that to one POST.
            webhookEventCreated.create({ eventId, merchantId }, { id: kind === 'created' ? eventId : `sweep-${eventId}` }),
      ),
    );
  },
};
