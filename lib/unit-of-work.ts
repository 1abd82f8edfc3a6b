import { after } from 'next/server';
import type { Db } from '@/db/client';
import { handOffSenders, Outbox } from './outbox';

// The unit of work (docs/architecture.md#the-unit-of-work), after Polar's JobQueueManager: a state
// change's webhook events and e-mails are written in its transaction and handed off only after it
// commits; a crash after the commit is covered by the sweepers.

export { Outbox };

/** Runs `work` in one transaction with an outbox, hands the outbox off after the commit. Not to be nested. */
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
