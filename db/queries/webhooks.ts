import { and, asc, desc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../client';
import { deleteInBatches } from './batched-delete';
import { merchants, webhookAttempts, webhookEvents } from '../schema';

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** What a delivery needs: the event's stored bytes, and where and how its merchant receives webhooks now. */
const deliveryFields = {
  id: webhookEvents.id,
  merchantId: webhookEvents.merchantId,
  body: webhookEvents.body,
  webhookUrl: merchants.webhookUrl,
  webhookSecret: merchants.webhookSecret,
};

/** The event with where and how its merchant receives webhooks now (a resend: no lease). */
export async function getEventForDelivery(db: Db, eventId: string) {
  const [row] = await db
    .select(deliveryFields)
    .from(webhookEvents)
    .innerJoin(merchants, eq(merchants.id, webhookEvents.merchantId))
    .where(eq(webhookEvents.id, eventId))
    .limit(1);
  return row;
}

/**
 * Takes the automatic delivery of each event for `leaseMs`, and reads what its delivery needs, in
 * one statement: only events never dispatched and under no live lease are taken. Returns the
 * events taken; one that is not returned belongs to another dispatcher (or does not exist). Of
 * two dispatchers racing for an event, one gets it back. A dispatcher that dies mid-way leaves a
 * lease that lapses, and the sweeper takes the event again.
 */
export async function claimEvents(db: Db, eventIds: string[], now: Date, leaseMs: number) {
  if (eventIds.length === 0) return [];
  return db
    .update(webhookEvents)
    .set({ claimedUntil: new Date(now.getTime() + leaseMs) })
    .from(merchants)
    .where(
      and(
        inArray(webhookEvents.id, eventIds),
        eq(merchants.id, webhookEvents.merchantId),
        isNull(webhookEvents.dispatchedAt),
        or(isNull(webhookEvents.claimedUntil), lt(webhookEvents.claimedUntil, now)),
      ),
    )
    .returning(deliveryFields);
}

/** An event as a delivery reads it (getEventForDelivery, claimEvents). */
export type DeliveryTarget = NonNullable<Awaited<ReturnType<typeof getEventForDelivery>>>;

export async function markDispatched(db: Db, eventId: string, now: Date): Promise<void> {
  await db.update(webhookEvents).set({ dispatchedAt: now, claimedUntil: null }).where(eq(webhookEvents.id, eventId));
}

export type NewWebhookAttempt = typeof webhookAttempts.$inferInsert;

/**
 * Records attempts, in order, and marks the events of the automatic ones dispatched (their lease
 * given back), in ONE statement: a data-modifying CTE runs with the insert or not at all, so an
 * attempt is never recorded without its event marked, nor the other way round.
 */
export async function recordAttempts(
  db: Db,
  attempts: NewWebhookAttempt[],
  { dispatchedIds, now }: { dispatchedIds: string[]; now: Date },
): Promise<WebhookAttemptRow[]> {
  if (attempts.length === 0) return [];
  const dispatched = db.$with('dispatched').as(
    db
      .update(webhookEvents)
      .set({ dispatchedAt: now, claimedUntil: null })
      .where(inArray(webhookEvents.id, dispatchedIds))
      .returning({ id: webhookEvents.id }),
  );
  const rows = await db.with(dispatched).insert(webhookAttempts).values(attempts).returning();
  // RETURNING gives no order; identities are handed out in VALUES order.
  return rows.sort((a, b) => a.id - b.id);
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

/** Writes an event; a charge's (with its transaction) once per transaction and type: null for a repeat. */
export async function insertWebhookEvent(tx: Db, event: typeof webhookEvents.$inferInsert): Promise<string | null> {
  const insert = tx.insert(webhookEvents).values(event);
  const [row] = await (event.transactionId
    ? insert.onConflictDoNothing({ target: [webhookEvents.transactionId, webhookEvents.type] })
    : insert
  ).returning({ id: webhookEvents.id });
  return row?.id ?? null;
}

/**
 * Deletes events written before `before`, with their attempts (./batched-delete.ts); returns how
 * many events went.
 */
export function deleteEventsCreatedBefore(db: Db, before: Date, batches?: { batchSize?: number; maxBatches?: number }): Promise<number> {
  return deleteInBatches(
    db,
    async (tx, limit) => (await tx.select({ id: webhookEvents.id }).from(webhookEvents).where(lt(webhookEvents.createdAt, before)).limit(limit)).map((e) => e.id),
    async (tx, ids) => {
      await tx.delete(webhookAttempts).where(inArray(webhookAttempts.eventId, ids));
      await tx.delete(webhookEvents).where(inArray(webhookEvents.id, ids));
    },
    batches,
  );
}
