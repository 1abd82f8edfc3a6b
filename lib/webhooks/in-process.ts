import { errorFields, log } from '@/lib/log';
import { sendWebhook, WEBHOOK_CONCURRENCY_PER_MERCHANT } from '@/lib/inngest/functions/send-webhook';
import { dispatchesSettled } from './dispatch';

// DECISIONS 13: without Inngest, the send-webhook function's own code runs in this process, with
// the same per-merchant concurrency limit, its steps run inline.

export interface QueuedEvent {
  name: string;
  data: { eventId: string; merchantId: string };
}

const inlineStep = { run: <T>(_id: string, fn: () => Promise<T>) => fn() };

const lanes = new Map<string, { active: number; waiting: QueuedEvent[] }>();
const idle = new Set<() => void>();

function pump(merchantId: string) {
  const lane = lanes.get(merchantId);
  if (!lane) return;
  while (lane.active < WEBHOOK_CONCURRENCY_PER_MERCHANT && lane.waiting.length > 0) {
    const event = lane.waiting.shift()!;
    lane.active += 1;
    void sendWebhook({ event, step: inlineStep })
      .catch((error) => log.error('webhook delivery failed', { eventId: event.data.eventId, ...errorFields(error) }))
      .finally(() => {
        lane.active -= 1;
        if (lane.active === 0 && lane.waiting.length === 0) lanes.delete(merchantId);
        pump(merchantId);
        if (lanes.size === 0) for (const resolve of idle) resolve();
      });
  }
}

/** Queues deliveries in this process; returns at once. */
export function runInProcess(events: QueuedEvent[]): void {
  for (const event of events) {
    const lane = lanes.get(event.data.merchantId) ?? { active: 0, waiting: [] };
    lanes.set(event.data.merchantId, lane);
    lane.waiting.push(event);
    pump(event.data.merchantId);
  }
}

/** Resolves once every hand-off and every queued in-process delivery has finished (tests, shutdown). */
export async function inProcessIdle(): Promise<void> {
  await dispatchesSettled();
  if (lanes.size === 0) return;
  return new Promise((resolve) => {
    const done = () => {
      idle.delete(done);
      resolve();
    };
    idle.add(done);
  });
}
