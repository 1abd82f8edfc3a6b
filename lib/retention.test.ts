import { eq, inArray } from 'drizzle-orm';
import { InngestTestEngine } from '@inngest/test';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { emailAttempts, emails, idempotencyKeys, manageLinks, webhookAttempts, webhookEvents } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { createManageLink } from '@/lib/auth/manage-links';
import { deleteExpiredIdempotencyKeysFunction, deleteOldEmailsFunction, deleteOldManageLinksFunction, deleteOldWebhookEventsFunction } from '@/lib/inngest/functions/retention';
import { createId } from '@/lib/ids';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { holdWebhookHandOffs } from '@/test/webhook-queue';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/idempotency';
import { runRenewalSweep, runTestClock } from '@/lib/billing/sweep';
import { CARDS, cardForm, countingSandbox, createTestLink } from '@/test/checkout';
import { truncateAll, useTestDatabase } from '@/test/database';
import { deleteOldEmails, deleteOldManageLinks, deleteOldWebhookEvents, EMAIL_RETENTION_DAYS, MANAGE_LINK_RETENTION_DAYS, WEBHOOK_EVENT_RETENTION_DAYS } from './retention';

// Retention jobs (docs/operations.md#scheduled-jobs), on their own and as Inngest functions.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
  holdWebhookHandOffs();
});
beforeEach(() => truncateAll(database.db));

const DAY = 86_400_000;

/** A paid link's event, written `daysAgo` days ago, with one recorded attempt. */
async function eventAged(daysAgo: number) {
  const link = await createTestLink(database.db);
  await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  const [event] = await database.db
    .update(webhookEvents)
    .set({ createdAt: new Date(Date.now() - daysAgo * DAY) })
    .where(eq(webhookEvents.planId, link.subscriptionPlanId))
    .returning();
  await database.db.insert(webhookAttempts).values({ eventId: event!.id, trigger: 'automatic', url: 'https://example.com/', attemptedAt: new Date(), latencyMs: 5, statusCode: 200, ok: true });
  return event!.id;
}

describe('webhook event retention', () => {
  it(`deletes events older than ${WEBHOOK_EVENT_RETENTION_DAYS} days with their attempts; younger ones stay`, async () => {
    const old = [await eventAged(WEBHOOK_EVENT_RETENTION_DAYS + 1), await eventAged(WEBHOOK_EVENT_RETENTION_DAYS + 30)];
    const kept = await eventAged(WEBHOOK_EVENT_RETENTION_DAYS - 1);
    expect(await deleteOldWebhookEvents(database.db)).toBe(2);
    expect((await database.db.select().from(webhookEvents)).map((e) => e.id)).toEqual([kept]);
    expect(await database.db.select().from(webhookAttempts).where(inArray(webhookAttempts.eventId, old))).toEqual([]);
    expect(await database.db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, kept))).toHaveLength(1);
    expect(await deleteOldWebhookEvents(database.db)).toBe(0);
  });

  it('runs as the delete-old-webhook-events Inngest function', async () => {
    await eventAged(WEBHOOK_EVENT_RETENTION_DAYS + 2);
    const { result } = await new InngestTestEngine({ function: deleteOldWebhookEventsFunction }).execute();
    expect(result).toEqual({ deleted: 1 });
  });
});

describe('idempotency record retention', () => {
  /** An idempotency record of the link's merchant, written `hoursAgo` hours ago. */
  const record = (merchantId: string, key: string, hoursAgo: number) => ({
    merchantId,
    key,
    requestHash: 'h',
    responseStatus: 200,
    responseBody: '{}',
    createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
  });
  const keysLeft = async () => (await database.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((r) => r.key);

  it('runs as the delete-expired-idempotency-keys Inngest function, apart from the renewal sweep', async () => {
    const { merchant } = await createTestLink(database.db);
    await database.db.insert(idempotencyKeys).values([record(merchant.merchantId, 'old', 25), record(merchant.merchantId, 'live', 1)]);
    const { result } = await new InngestTestEngine({ function: deleteExpiredIdempotencyKeysFunction }).execute();
    expect(result).toEqual({ deleted: 1 });
    expect(await keysLeft()).toEqual(['live']);
  });

  it('deletes in batches, and the test clock runs it too; live records stay', async () => {
    const { merchant } = await createTestLink(database.db);
    const old = Array.from({ length: 5 }, (_, i) => record(merchant.merchantId, `old-${i}`, 25 + i));
    await database.db.insert(idempotencyKeys).values([...old, record(merchant.merchantId, 'live', 23)]);
    expect(await deleteExpiredIdempotencyKeys(database.db, { batchSize: 2 })).toBe(5);
    await database.db.insert(idempotencyKeys).values(record(merchant.merchantId, 'old-again', 30));
    expect(await runRenewalSweep(database.db, countingSandbox().processor, { now: new Date() })).not.toHaveProperty('idempotencyKeysDeleted');
    expect(await runTestClock(database.db, countingSandbox().processor, new Date())).toMatchObject({ idempotencyKeysDeleted: 1 });
    expect(await keysLeft()).toEqual(['live']);
  });
});

describe('customer data retention', () => {
  /** A receipt to the link's customer, written `daysAgo` days ago, with one attempt. */
  async function emailAged(daysAgo: number) {
    const link = await createTestLink(database.db);
    const id = createId('eml');
    await database.db.insert(emails).values({
      id,
      merchantId: link.merchant.merchantId,
      planId: link.subscriptionPlanId,
      kind: 'receipt',
      toAddress: 'ana@example.com',
      subject: 'Recibo',
      text: 'Gracias',
      html: '<p>Gracias</p>',
      createdAt: new Date(Date.now() - daysAgo * DAY),
    });
    await database.db.insert(emailAttempts).values({ emailId: id, transport: 'kept', attemptedAt: new Date(), latencyMs: 1, ok: true });
    return id;
  }

  /** A manage link of a new plan that expired `daysAgo` days ago. */
  async function manageLinkExpired(daysAgo: number) {
    const link = await createTestLink(database.db);
    const ttlMs = 7 * DAY;
    await createManageLink(database.db, { id: link.subscriptionPlanId, merchantId: link.merchant.merchantId }, { source: 'merchant', now: new Date(Date.now() - daysAgo * DAY - ttlMs), ttlMs });
    return link.subscriptionPlanId;
  }

  it(`deletes e-mails older than ${EMAIL_RETENTION_DAYS} days with their attempts; younger ones stay`, async () => {
    const old = await emailAged(EMAIL_RETENTION_DAYS + 1);
    const kept = await emailAged(EMAIL_RETENTION_DAYS - 1);
    expect(await deleteOldEmails(database.db)).toBe(1);
    expect((await database.db.select({ id: emails.id }).from(emails)).map((e) => e.id)).toEqual([kept]);
    expect(await database.db.select().from(emailAttempts).where(eq(emailAttempts.emailId, old))).toEqual([]);
    expect(await database.db.select().from(emailAttempts).where(eq(emailAttempts.emailId, kept))).toHaveLength(1);
    await emailAged(EMAIL_RETENTION_DAYS + 5);
    expect((await new InngestTestEngine({ function: deleteOldEmailsFunction }).execute()).result).toEqual({ deleted: 1 });
  });

  it(`deletes manage links ${MANAGE_LINK_RETENTION_DAYS} days after they expired; live and recently expired ones stay`, async () => {
    await manageLinkExpired(MANAGE_LINK_RETENTION_DAYS + 1);
    const recent = await manageLinkExpired(MANAGE_LINK_RETENTION_DAYS - 1);
    const live = await manageLinkExpired(-3);
    expect(await deleteOldManageLinks(database.db)).toBe(1);
    expect((await database.db.select({ planId: manageLinks.planId }).from(manageLinks)).map((l) => l.planId).sort()).toEqual([recent, live].sort());
    await manageLinkExpired(MANAGE_LINK_RETENTION_DAYS + 9);
    expect((await new InngestTestEngine({ function: deleteOldManageLinksFunction }).execute()).result).toEqual({ deleted: 1 });
  });
});
