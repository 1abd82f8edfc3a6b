import type { WebhookQueue } from './deliver';
import { inProcessQueue } from './in-process';

// Where committed events go to be delivered. The domain only enqueues; which runner takes the jobs
// (Inngest's send-webhook function, or this process) is decided once, at start-up
// (lib/runners.ts). Until then, and in scripts, the in-process queue takes them. This is the one
// seam of delivery: a test that holds or counts hand-offs installs its own queue here
// (test/webhook-queue.ts).

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
