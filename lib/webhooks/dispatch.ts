import { after } from 'next/server';
import { errorFields, log } from '@/lib/log';

// How committed events reach delivery. With Inngest configured, one `servicepay/webhook.created`
// event per outbox row (its id is the outbox id, so a repeated send is one delivery); without it,
// the same function code runs in this process. Either way a lost hand-off is not a lost event:
// the sweeper sends whatever was never attempted.

export type Dispatcher = (eventIds: string[]) => Promise<void>;

let dispatcher: Dispatcher | undefined;

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
      await (dispatcher ?? (await import('./runtime')).defaultDispatcher())(eventIds);
    } catch (error) {
      log.error('webhook dispatch failed; the sweeper will send it', { eventIds, ...errorFields(error) });
    }
  };
  try {
    after(run);
  } catch {
    void run();
  }
}
