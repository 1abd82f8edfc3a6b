import { errorFields, log } from '@/lib/log';
import { registerHandOff } from '@/lib/outbox';
import type { WebhookQueue } from './deliver';
import { inProcessIdle, inProcessQueue } from './in-process';

// Where committed events go to be delivered, chosen at start-up (lib/runners.ts); tests swap it.

export type { WebhookQueue };

// On globalThis: instrumentation and the routes are separate module graphs in Next.js.
const slot = globalThis as typeof globalThis & { __servicepayWebhookQueue?: WebhookQueue };

export function installWebhookQueue(queue: WebhookQueue | undefined): void {
  slot.__servicepayWebhookQueue = queue;
}

export function webhookQueue(): WebhookQueue {
  return slot.__servicepayWebhookQueue ?? inProcessQueue;
}

// Registered here for the outbox (lib/outbox.ts); every recorder loads it.
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
