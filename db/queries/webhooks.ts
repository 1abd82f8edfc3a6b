import { and, asc, desc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../client';
import { merchants, webhookAttempts, webhookEvents } from '../schema';

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** The event with where and how its merchant receives webhooks now. */
export async function getEventForDelivery(db: Db, eventId: string) {
  const [row] = await db
    .select({ event: webhookEvents, webhookUrl: merchants.webhookUrl, webhookSecret: merchants.webhookSecret })
    .from(webhookEvents)
    .innerJoin(merchants, eq(merchants.id, webhookEvents.merchantId))
    .where(eq(webhookEvents.id, eventId))
    .limit(1);
  return row;
}

/**
 * Takes the automatic delivery of an event for `leaseMs`: only if it was never dispatched and no
 * live lease holds it. Of two dispatchers racing, one gets true. A dispatcher that dies mid-way
 * leaves a lease that lapses, and the sweeper takes the event again.
 */
export async function claimEvent(db: Db, eventId: string, now: Date, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(webhookEvents)
    .set({ claimedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(webhookEvents.id, eventId),
        isNull(webhookEvents.dispatchedAt),
        or(isNull(webhookEvents.claimedUntil), lt(webhookEvents.claimedUntil, now)),
      ),
    )
    .returning({ id: webhookEvents.id });
  return rows.length === 1;
}

export async function markDispatched(db: Db, eventId: string, now: Date): Promise<void> {
  await db.update(webhookEvents).set({ dispatchedAt: now, claimedUntil: null }).where(eq(webhookEvents.id, eventId));
}

export async function insertAttempt(db: Db, attempt: typeof webhookAttempts.$inferInsert): Promise<WebhookAttemptRow> {
  const [row] = await db.insert(webhookAttempts).values(attempt).returning();
  return row!;
}

/** Events never dispatched, created before `createdBefore`, and not under a live lease; oldest first. */
export async function findUndispatchedEvents(db: Db, { createdBefore, now, limit }: { createdBefore: Date; now: Date; limit: number }) {
  return db
    .select({ eventId: webhookEvents.id, merchantId: webhookEvents.merchantId })
    .from(webhookEvents)
    .where(
      and(
        isNull(webhookEvents.dispatchedAt),
        lt(webhookEvents.createdAt, createdBefore),
        or(isNull(webhookEvents.claimedUntil), lt(webhookEvents.claimedUntil, now)),
      ),
    )
    .orderBy(asc(webhookEvents.createdAt))
    .limit(limit);
}

/** One merchant's events, newest first, after the cursor (an event id), optionally of one plan. */
export async function listEvents(
  db: Db,
  { merchantId, planId, before, limit }: { merchantId: string; planId?: string; before?: string; limit: number },
): Promise<WebhookEventRow[]> {
  return db
    .select()
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.merchantId, merchantId),
        planId ? eq(webhookEvents.planId, planId) : undefined,
        before ? lt(webhookEvents.id, before) : undefined,
      ),
    )
    .orderBy(desc(webhookEvents.id))
    .limit(limit);
}

export type EventWithAttempts = WebhookEventRow & { attempts: WebhookAttemptRow[] };

/** The events, each with its attempts in the order they were made. */
export async function withAttempts(db: Db, events: WebhookEventRow[]): Promise<EventWithAttempts[]> {
  if (events.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.eventId, events.map((e) => e.id)))
    .orderBy(asc(webhookAttempts.id));
  return events.map((event) => ({ ...event, attempts: attempts.filter((a) => a.eventId === event.id) }));
}

/** All of a plan's events, newest first, with their attempts; the merchant is in the `where`. */
export async function listPlanEvents(db: Db, merchantId: string, planId: string): Promise<EventWithAttempts[]> {
  const events = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.merchantId, merchantId), eq(webhookEvents.planId, planId)))
    .orderBy(desc(webhookEvents.id));
  return withAttempts(db, events);
}

/** One event of this merchant with its attempts, or undefined. */
export async function getEventForMerchant(db: Db, { merchantId, eventId }: { merchantId: string; eventId: string }) {
  const events = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.merchantId, merchantId)))
    .limit(1);
  const [event] = await withAttempts(db, events);
  return event;
}

/** Where one event of this merchant would be sent now (its merchant's URL, no secret), or undefined. */
export async function getEventWebhookUrl(db: Db, { merchantId, eventId }: { merchantId: string; eventId: string }) {
  const [row] = await db
    .select({ webhookUrl: merchants.webhookUrl })
    .from(webhookEvents)
    .innerJoin(merchants, eq(merchants.id, webhookEvents.merchantId))
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.merchantId, merchantId)))
    .limit(1);
  return row;
}

/** Which merchant each event belongs to (the delivery concurrency key). */
export async function getEventMerchants(db: Db, eventIds: string[]) {
  if (eventIds.length === 0) return [];
  return db
    .select({ eventId: webhookEvents.id, merchantId: webhookEvents.merchantId })
    .from(webhookEvents)
    .where(inArray(webhookEvents.id, eventIds));
}

/**
 * Deletes events written before `before`, with their attempts, at most `batchSize` events per
 * transaction so no statement holds many row locks or runs long; returns how many events went.
 */
export async function deleteEventsCreatedBefore(db: Db, before: Date, { batchSize = 500, maxBatches = 20 } = {}): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await db.transaction(async (tx) => {
      const old = await tx.select({ id: webhookEvents.id }).from(webhookEvents).where(lt(webhookEvents.createdAt, before)).limit(batchSize);
      if (old.length === 0) return 0;
      const ids = old.map((e) => e.id);
      await tx.delete(webhookAttempts).where(inArray(webhookAttempts.eventId, ids));
      await tx.delete(webhookEvents).where(inArray(webhookEvents.id, ids));
      return ids.length;
    });
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}
