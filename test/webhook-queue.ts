import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Database, Db } from '@/db/client';
import { inProcessQueue } from '@/lib/webhooks/in-process';
import { installWebhookQueue } from '@/lib/webhooks/queue';
import { useTestDatabase } from './database';

/**
 * Swaps the delivery queue (lib/webhooks/queue.ts, the one seam of delivery) for one that holds
 * back each committed event's first hand-off, as if the process had died after the commit, and
 * returns the held event ids, in order; the sweeper's and a merchant's resends still go to the
 * in-process queue. So a test decides when (and whether) a new event goes out.
 */
export function holdWebhookHandOffs(): string[] {
  const held: string[] = [];
  installWebhookQueue({
    async enqueue(jobs) {
      held.push(...jobs.filter((job) => job.kind === 'created').map((job) => job.eventId));
      await inProcessQueue.enqueue(jobs.filter((job) => job.kind !== 'created'));
    },
  });
  return held;
}

/** Puts the default queue back. */
export function restoreWebhookQueue(): void {
  installWebhookQueue(undefined);
}

/**
 * A test file's set-up for a domain that records events: a test database, and each test's new
 * events held back (holdWebhookHandOffs), the default queue put back after the file. Its `db` is
 * there once the file's beforeAll ran.
 */
export function databaseHoldingHandOffs(): { readonly db: Db } {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await useTestDatabase();
  });
  beforeEach(() => holdWebhookHandOffs());
  afterAll(() => restoreWebhookQueue());
  return {
    get db() {
      if (!database) throw new Error('the test database is not ready: use it inside a test or a hook');
      return database.db;
    },
  };
}
