import { after } from 'next/server';
import { errorFields, log } from '@/lib/log';
import { defaultDispatcher } from './runtime';

// How committed events reach delivery. With Inngest configured, one `servicepay/webhook.created`
// event per outbox row (its id is the outbox id, so a repeated send is one delivery); without it,
// the same function code runs in this process. Either way a lost hand-off is not a lost event:
// the sweeper sends whatever was never attempted.

export type Dispatcher = (eventIds: string[]) => Promise<void>;

let dispatcher: Dispatcher | undefined;
const inFlight = new Set<Promise<void>>();

/** Replaces how events are handed to delivery (the in-process or Inngest path; tests). */
export function setWebhookDispatcher(next: Dispatcher | undefined): void {
  dispatcher = next;
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
  const track = () => {
    const running = run().finally(() => inFlight.delete(running));
    inFlight.add(running);
    return running;
  };
  try {
    after(track);
  } catch {
    void track();
  }
}

/** Resolves once every hand-off started so far has finished (tests, shutdown). */
export async function dispatchesSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all(inFlight);
}
