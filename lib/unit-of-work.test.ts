import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { emailAttempts, emails, merchants, webhookEvents } from '@/db/schema';
import { queueCustomerEmail } from '@/lib/email/record';
import { recordLifecycleEvent } from '@/lib/webhooks/events';
import type { WebhookJob } from '@/lib/webhooks/deliver';
import { installWebhookQueue } from '@/lib/webhooks/queue';
import { createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { deliveriesSettled, inTransaction } from './unit-of-work';

// The unit of work (docs/architecture.md#the-unit-of-work): what a transaction records into its
// outbox reaches delivery only once it has committed, and never when it rolls back.

let database: Database;
/** Each job the queue took, with whether its event was committed (visible outside) by then. */
const enqueued: { job: WebhookJob; committed: boolean }[] = [];

beforeAll(async () => {
  database = await useTestDatabase();
  installWebhookQueue({
    async enqueue(jobs) {
      for (const job of jobs) {
        const rows = await database.db.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.id, job.eventId));
        enqueued.push({ job, committed: rows.length === 1 });
      }
    },
  });
});
afterAll(() => installWebhookQueue(undefined));

/** A plan whose merchant chose the `subscription.paused` event. */
async function plan() {
  const link = await createTestLink(database.db);
  await database.db.update(merchants).set({ webhookEventTypes: ['subscription.paused'] }).where(eq(merchants.id, link.merchant.merchantId));
  return link.plan();
}

describe('inTransaction', () => {
  it('returns the work’s value and hands its event and e-mail to delivery after the commit', async () => {
    const p = await plan();
    enqueued.length = 0;
    const value = await inTransaction(database.db, async (tx, outbox) => {
      await recordLifecycleEvent(tx, outbox, p, 'subscription.paused');
      await queueCustomerEmail(tx, outbox, 'cancelled', { plan: p });
      expect(enqueued).toEqual([]);
      return 'done';
    });
    expect(value).toBe('done');
    await deliveriesSettled();
    const [event] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, p.id));
    expect(enqueued).toEqual([{ job: { eventId: event!.id, merchantId: p.merchantId, kind: 'created' }, committed: true }]);
    const [email] = await database.db.select().from(emails).where(eq(emails.planId, p.id));
    // Without SMTP_URL, outside production, the e-mail is kept: one attempt, recorded as sent.
    expect(await database.db.select().from(emailAttempts).where(eq(emailAttempts.emailId, email!.id))).toHaveLength(1);
  });

  it('drops what it recorded when the transaction rolls back, and rethrows', async () => {
    const p = await plan();
    enqueued.length = 0;
    const failure = new Error('refused after recording');
    await expect(
      inTransaction(database.db, async (tx, outbox) => {
        await recordLifecycleEvent(tx, outbox, p, 'subscription.paused');
        await queueCustomerEmail(tx, outbox, 'cancelled', { plan: p });
        throw failure;
      }),
    ).rejects.toBe(failure);
    await deliveriesSettled();
    expect(enqueued).toEqual([]);
    expect(await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, p.id))).toEqual([]);
    expect(await database.db.select().from(emails).where(eq(emails.planId, p.id))).toEqual([]);
  });

  it('hands nothing off for a transaction that recorded nothing', async () => {
    enqueued.length = 0;
    expect(await inTransaction(database.db, async () => 42)).toBe(42);
    await deliveriesSettled();
    expect(enqueued).toEqual([]);
  });
});
