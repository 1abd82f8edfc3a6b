import { errorFields, log } from '@/lib/log';
import { registerQueuedHandOff } from '@/lib/outbox';
import type { WebhookJob, WebhookQueue } from './deliver';
import { inProcessIdle, inProcessQueue } from './in-process';

// Where committed events go to be delivered, chosen at start-up (lib/runners.ts); tests swap it.

export type { WebhookQueue };

// Registered here for the outbox (lib/outbox.ts); every recorder loads it.
const queue = registerQueuedHandOff<WebhookJob, WebhookQueue>('webhooks', {
  inProcess: inProcessQueue,
  jobs: ({ webhookEvents }) => webhookEvents.map((event) => ({ ...event, kind: 'created' as const })),
  failed: (error, jobs) => log.error('webhook dispatch failed; the sweeper will send it', { eventIds: jobs.map((e) => e.eventId), ...errorFields(error) }),
  idle: inProcessIdle,
});
export const installWebhookQueue = queue.install;
export const webhookQueue = queue.current;
