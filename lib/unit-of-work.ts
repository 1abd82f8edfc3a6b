import { after } from 'next/server';
import { type Db, getDb } from '@/db/client';
import { deliverEmail } from '@/lib/email/send';
import { errorFields, log } from '@/lib/log';
import { inProcessIdle } from '@/lib/webhooks/in-process';
import { webhookQueue } from '@/lib/webhooks/queue';
import { Outbox } from './outbox';

// The unit of work (docs/architecture.md#the-unit-of-work), after Polar's JobQueueManager: a state
// change and what it hands off (webhook events, customer e-mails) are written in one database
// transaction; the hand-offs are collected in its outbox and sent only once it commits, dropped
// if it rolls back. The transaction returns domain values; no caller dispatches ids by hand. A
// lost hand-off (a crash after the commit) is not a lost message: the sweepers send whatever was
// never attempted.

export { Outbox };

/**
 * Runs `work` in one database transaction with an outbox; after the commit, hands what it
 * recorded to delivery (after the response inside a request, at once otherwise) and returns
 * `work`'s value. Not to be nested: the outer transaction would commit after the hand-off.
 */
export async function inTransaction<T>(db: Db, work: (tx: Db, outbox: Outbox) => Promise<T>): Promise<T> {
  const outbox = new Outbox();
  const value = await db.transaction((tx) => work(tx, outbox));
  handOff(outbox);
  return value;
}

const inFlight = new Set<Promise<void>>();

function track(work: () => Promise<void>): Promise<void> {
  const running = work().finally(() => inFlight.delete(running));
  inFlight.add(running);
  return running;
}

/** Never throws: a failed hand-off is logged and left to the sweepers. */
async function deliver({ webhookEvents, emailIds }: Outbox): Promise<void> {
  await Promise.all([
    webhookEvents.length > 0 &&
      webhookQueue()
        .enqueue(webhookEvents.map((event) => ({ ...event, kind: 'created' as const })))
        .catch((error: unknown) => {
          log.error('webhook dispatch failed; the sweeper will send it', { eventIds: webhookEvents.map((e) => e.eventId), ...errorFields(error) });
        }),
    emailIds.length > 0 &&
      (async () => {
        const db = await getDb();
        for (const id of emailIds) await deliverEmail(db, id);
      })().catch((error: unknown) => {
        log.error('sending e-mails failed; the sweeper will send them', { emailIds, ...errorFields(error) });
      }),
  ]);
}

function handOff(outbox: Outbox): void {
  if (outbox.isEmpty) return;
  const run = () => deliver(outbox);
  try {
    after(() => track(run));
  } catch {
    // Outside a request (a worker, a script, a test): at once.
    void track(run);
  }
}

/** Resolves once every hand-off started so far has finished (tests, shutdown). */
export async function handOffsSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all(inFlight);
}

/** Resolves once every hand-off and every in-process webhook delivery has finished (tests, shutdown). */
export async function deliveriesSettled(): Promise<void> {
  await handOffsSettled();
  await inProcessIdle();
}
