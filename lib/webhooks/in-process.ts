import { getDb } from '@/db/client';
import { errorFields, log } from '@/lib/log';
import { deliverJob, WEBHOOK_CONCURRENCY_PER_MERCHANT, type WebhookJob, type WebhookQueue } from './deliver';

// Without Inngest, deliveries run in this process with the send-webhook function's per-merchant limit and code.

const lanes = new Map<string, { active: number; waiting: WebhookJob[] }>();
const idle = new Set<() => void>();

function pump(merchantId: string) {
  const lane = lanes.get(merchantId);
  if (!lane) return;
  while (lane.active < WEBHOOK_CONCURRENCY_PER_MERCHANT && lane.waiting.length > 0) {
    const job = lane.waiting.shift()!;
    lane.active += 1;
    void (async () => deliverJob(await getDb(), job))()
      .catch((error) => log.error('webhook delivery failed', { eventId: job.eventId, ...errorFields(error) }))
      .finally(() => {
        lane.active -= 1;
        if (lane.active === 0 && lane.waiting.length === 0) lanes.delete(merchantId);
        pump(merchantId);
        if (lanes.size === 0) for (const resolve of idle) resolve();
      });
  }
}

export const inProcessQueue: WebhookQueue = {
  async enqueue(jobs) {
    for (const job of jobs) {
      const lane = lanes.get(job.merchantId) ?? { active: 0, waiting: [] };
      lanes.set(job.merchantId, lane);
      lane.waiting.push(job);
      pump(job.merchantId);
    }
  },
};

export async function inProcessIdle(): Promise<void> {
  if (lanes.size === 0) return;
  return new Promise((resolve) => {
    const done = () => {
      idle.delete(done);
      resolve();
    };
    idle.add(done);
  });
}
