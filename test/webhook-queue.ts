import { inProcessQueue } from '@/lib/webhooks/in-process';
import { installWebhookQueue } from '@/lib/webhooks/queue';

/**
 * Swaps the delivery queue (lib/webhooks/queue.ts, the one seam of delivery) for one that holds
 * back each committed event's first hand-off, as if the process had died after the commit, and
 * returns the held event ids, in order; the sweeper's and a merchant's resends still go to the
 * in-process queue. So a test decides when (and whether) a new event goes out.
 */
export function holdWebhookHandOffs(): string[] {
  const held: string[] = [];
  installWebhookQueue({
    async enqueue(jobs) {
      held.push(...jobs.filter((job) => job.kind === 'created').map((job) => job.eventId));
      await inProcessQueue.enqueue(jobs.filter((job) => job.kind !== 'created'));
    },
  });
  return held;
}

/** Puts the default queue back. */
export function restoreWebhookQueue(): void {
  installWebhookQueue(undefined);
}
