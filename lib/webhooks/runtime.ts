import { type Db, getDb } from '@/db/client';
import { getEventMerchants } from '@/db/queries/webhooks';
import { inngest, inngestConfigured, webhookEventCreated, webhookEventResent } from '@/lib/inngest/client';
import { errorFields, log } from '@/lib/log';
import type { Dispatcher } from './dispatch';
import { runInProcess } from './in-process';
import { findEventsToSweep } from './sweep';

// The two ways events reach the send-webhook function: as Inngest events when Inngest is
// configured, or in this process (DECISIONS 13).

type EventRef = { eventId: string; merchantId: string };

async function handOff(events: EventRef[], kind: 'created' | 'swept' | 'resent'): Promise<void> {
  if (events.length === 0) return;
  if (!inngestConfigured()) {
    const name = kind === 'resent' ? webhookEventResent.name : webhookEventCreated.name;
    return runInProcess(events.map((data) => ({ name, data })));
  }
  await inngest.send(
    events.map((data) =>
      kind === 'resent'
        ? webhookEventResent.create(data)
        : // A stable id: Inngest ignores the same event sent twice. The sweeper's id differs from
          // the first hand-off's, so an event whose first run died is sent again; its lease keeps
          // that to one POST.
          webhookEventCreated.create(data, { id: kind === 'created' ? data.eventId : `sweep-${data.eventId}` }),
    ),
  );
}

export function defaultDispatcher(): Dispatcher {
  return async (eventIds) => handOff(await getEventMerchants(await getDb(), eventIds), 'created');
}

/** A merchant's resend: the same bytes and id, delivered again whatever happened before. */
export function resendEvent(event: EventRef): Promise<void> {
  return handOff([event], 'resent');
}

/** Hands every event the sweeper finds to delivery; returns how many. */
export async function sweepAndDispatch(db: Db, now: Date = new Date()): Promise<number> {
  const events = await findEventsToSweep(db, now);
  await handOff(events, 'swept');
  return events.length;
}

const SWEEP_EVERY_MS = 15_000;

/** The sweeper's timer when Inngest is not configured (started by lib/bootstrap.ts). */
export function startWebhookSweeper(): void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const count = await sweepAndDispatch(await getDb());
      if (count > 0) log.info('webhook sweeper dispatched events', { count });
    } catch (error) {
      log.error('webhook sweep failed', errorFields(error));
    } finally {
      running = false;
    }
  };
  setInterval(tick, SWEEP_EVERY_MS).unref();
}
