import { after } from 'next/server';
import type { Db } from '@/db/client';
import { handOffSenders, Outbox } from './outbox';

// The unit of work (docs/architecture.md#the-unit-of-work), after Polar's JobQueueManager: a state
// change and what it hands off (webhook events, customer e-mails) are written in one database
// transaction; the hand-offs are collected in its outbox and sent only once it commits, dropped
// if it rolls back. The transaction returns domain values; no caller dispatches ids by hand. A
// lost hand-off (a crash after the commit) is not a lost message: the sweepers send whatever was
// never attempted. Each kind of hand-off is sent by the sender its recorder registered
// (lib/outbox.ts), so this file imports neither delivery and every folder of lib may use it.

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

/** Never throws: each sender logs a failed hand-off and leaves it to the sweepers. */
async function deliver(outbox: Outbox): Promise<void> {
  await Promise.all(handOffSenders().map((sender) => sender.send(outbox)));
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
  await Promise.all(handOffSenders().map((sender) => sender.idle?.()));
}
