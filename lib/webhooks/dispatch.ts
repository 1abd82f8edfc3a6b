import { after } from 'next/server';
import { getDb } from '@/db/client';
import { getEventMerchants } from '@/db/queries/webhooks';
import { errorFields, log } from '@/lib/log';
import { handOffsSettled, trackHandOff } from './hand-offs';
import { webhookQueue } from './queue';

// How committed events reach delivery: each goes to the webhook queue (Inngest, or this process;
// lib/webhooks/queue.ts). A lost hand-off is not a lost event: the sweeper sends whatever was
// never attempted.

export type Dispatcher = (eventIds: string[]) => Promise<void>;

let dispatcher: Dispatcher | undefined;

/** Replaces how events are handed to delivery (tests). */
export function setWebhookDispatcher(next: Dispatcher | undefined): void {
  dispatcher = next;
}

/** Looks up each event's merchant (the queue's concurrency key) and enqueues its first delivery. */
export function defaultDispatcher(): Dispatcher {
  return async (eventIds) => {
    const events = await getEventMerchants(await getDb(), eventIds);
    if (events.length) await webhookQueue().enqueue(events.map((e) => ({ ...e, kind: 'created' as const })));
  };
}

/**
 * Hands committed events to delivery, after the response when called inside a request (Next's
 * `after`), at once otherwise. Never throws: a failed hand-off is logged and left to the sweeper.
 */
export function dispatchWebhookEvents(eventIds: string[]): void {
  if (eventIds.length === 0) return;
  const run = async () => {
    try {
      await (dispatcher ?? defaultDispatcher())(eventIds);
    } catch (error) {
      log.error('webhook dispatch failed; the sweeper will send it', { eventIds, ...errorFields(error) });
    }
  };
  try {
    after(() => trackHandOff(run));
  } catch {
    void trackHandOff(run);
  }
}

/** Resolves once every hand-off started so far has finished (tests, shutdown). */
export const dispatchesSettled = handOffsSettled;
