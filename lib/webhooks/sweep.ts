import type { Db } from '@/db/client';
import { findUndispatchedEvents } from '@/db/queries/webhooks';
import type { WebhookJob } from './deliver';
import { webhookQueue } from './queue';
import { findRetriesToSend } from './retries';

// The outbox's safety net (docs/webhooks.md#delivery): events committed but never handed off. A
// grace period first, so it does not race the normal path; the lease decides anyway.

export const SWEEP_GRACE_MS = 30_000;
const SWEEP_BATCH = 500;

function findEventsToSweep(db: Db, now: Date = new Date()) {
  return findUndispatchedEvents(db, { createdBefore: new Date(now.getTime() - SWEEP_GRACE_MS), now, limit: SWEEP_BATCH });
}

/** Returns how many. */
export async function sweepAndDispatch(db: Db, now: Date = new Date()): Promise<number> {
  const [events, retries] = await Promise.all([findEventsToSweep(db, now), findRetriesToSend(db, now)]);
  const jobs: WebhookJob[] = [
    ...events.map((e) => ({ ...e, kind: 'swept' as const })),
    ...retries.map((r) => ({ eventId: r.eventId, merchantId: r.merchantId, kind: 'retry' as const, dueAt: r.dueAt!.toISOString() })),
  ];
  if (jobs.length) await webhookQueue().enqueue(jobs);
  return jobs.length;
}
