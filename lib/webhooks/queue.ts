import { errorFields, log } from '@/lib/log';
import { registerHandOff } from '@/lib/outbox';
import type { WebhookQueue } from './deliver';
import { inProcessIdle, inProcessQueue } from './in-process';

// Where committed events go to be delivered: the one seam of delivery, chosen at start-up
// (lib/runners.ts), the in-process queue until then. Tests swap it (test/webhook-queue.ts).

export type { WebhookQueue };

// On globalThis: Next.js evaluates instrumentation and the routes as separate module graphs, and
// both must see the queue start-up chose.
const slot = globalThis as typeof globalThis & { __servicepayWebhookQueue?: WebhookQueue };

export function installWebhookQueue(queue: WebhookQueue | undefined): void {
  slot.__servicepayWebhookQueue = queue;
}

export function webhookQueue(): WebhookQueue {
  return slot.__servicepayWebhookQueue ?? inProcessQueue;
}

// The webhook events a unit of work recorded go to the queue once it commits (lib/outbox.ts):
// registered here, and loaded by every recorder (events.ts).
registerHandOff('webhooks', {
  async send({ webhookEvents }) {
    if (webhookEvents.length === 0) return;
    await webhookQueue()
      .enqueue(webhookEvents.map((event) => ({ ...event, kind: 'created' as const })))
      .catch((error: unknown) => {
        log.error('webhook dispatch failed; the sweeper will send it', { eventIds: webhookEvents.map((e) => e.eventId), ...errorFields(error) });
      });
  },
  idle: inProcessIdle,
});
