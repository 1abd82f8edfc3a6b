import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { newestPage } from './newest-page';
import { deleteCreatedBefore } from './batched-delete';
import { merchants, users, webhookAttempts, webhookEvents } from '../schema';

type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** What a delivery needs: the event's stored bytes, and where and how its merchant receives webhooks now. */
const deliveryFields = {
  id: webhookEvents.id,
  merchantId: webhookEvents.merchantId,
  planId: webhookEvents.planId,
  body: webhookEvents.body,
  createdAt: webhookEvents.createdAt,
  retries: webhookEvents.retries,
  webhookUrl: merchants.webhookUrl,
  webhookSecret: merchants.webhookSecret,
  webhookSecretPrevious: merchants.webhookSecretPrevious,
  webhookSecretRolledUntil: merchants.webhookSecretRolledUntil,
  // Opt-in retries (docs/webhooks.md#retries): whether they are on, and the endpoint's failing state.
  webhookRetries: merchants.webhookRetries,
  webhookFailingSince: merchants.webhookFailingSince,
  webhookDisabledAt: merchants.webhookDisabledAt,
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
  return newestPage(db, webhookEvents, { merchantId, before, limit }, planId ? eq(webhookEvents.planId, planId) : undefined);
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

/**
 * Writes an event, its body maybe chosen by the statement (bodyInMerchantVersion); a charge's (with
 * its transaction) once per transaction and type: null for a repeat. Prepared: a renewal runs it
 * (docs/performance.md#a-renewals-statements-prepared).
 */
export async function insertWebhookEvent(
  tx: Db,
  event: Omit<typeof webhookEvents.$inferInsert, 'body'> & { body: string | SQL },
): Promise<string | null> {
  const insert = tx.insert(webhookEvents).values(event);
  const [row] = await (event.transactionId
    ? insert.onConflictDoNothing({ target: [webhookEvents.transactionId, webhookEvents.type] })
    : insert
  )
    .returning({ id: webhookEvents.id })
    .prepare('insert_webhook_event')
    .execute();
  return row?.id ?? null;
}

/**
 * Deletes events written before `before`, with their attempts (./batched-delete.ts); returns how
 * many events went.
 */
export function deleteEventsCreatedBefore(db: Db, before: Date, batches?: { batchSize?: number; maxBatches?: number }): Promise<number> {
  return deleteCreatedBefore(
    db,
    { table: webhookEvents, id: webhookEvents.id, createdAt: webhookEvents.createdAt },
    { table: webhookAttempts, key: webhookAttempts.eventId },
    before,
    batches,
  );
}

/**
 * An event body in its merchant's pinned API version (docs/api.md#versioning), chosen by the
 * statement that writes the event, so no read of the merchant goes before it: `older` holds the
 * versions whose body differs from `latest`; with none, it is `latest` itself.
 */
export function bodyInMerchantVersion(merchantId: string, latest: string, older: [version: string, body: string][]): SQL | string {
  if (older.length === 0) return latest;
  const cases = sql.join(older.map(([version, body]) => sql`when ${version} then ${body}`), sql` `);
  return sql`(select case ${merchants.apiVersion} ${cases} else ${latest} end from ${merchants} where ${merchants.id} = ${merchantId})`;
}

/**
 * Takes each due retry (docs/webhooks.md#retries) for `leaseMs` and reads what its delivery needs,
 * in one statement: only an event whose retry is due and under no live lease is taken, its retry
 * count moved on and its due time cleared, so of the instances racing for it one gets it.
 */
export async function claimRetries(db: Db, eventIds: string[], now: Date, leaseMs: number) {
  if (eventIds.length === 0) return [];
  return db
    .update(webhookEvents)
    .set({ claimedUntil: new Date(now.getTime() + leaseMs), nextRetryAt: null, retries: sql`${webhookEvents.retries} + 1` })
    .from(merchants)
    .where(
      and(
        inArray(webhookEvents.id, eventIds),
        eq(merchants.id, webhookEvents.merchantId),
        lte(webhookEvents.nextRetryAt, now),
        or(isNull(webhookEvents.claimedUntil), lt(webhookEvents.claimedUntil, now)),
      ),
    )
    .returning(deliveryFields);
}

/** Retries due at `now` and under no live lease, soonest first. */
export async function findDueRetries(db: Db, { now, limit }: { now: Date; limit: number }) {
  return db
    .select({ eventId: webhookEvents.id, merchantId: webhookEvents.merchantId, dueAt: webhookEvents.nextRetryAt })
    .from(webhookEvents)
    .where(and(lte(webhookEvents.nextRetryAt, now), or(isNull(webhookEvents.claimedUntil), lt(webhookEvents.claimedUntil, now))))
    .orderBy(asc(webhookEvents.nextRetryAt))
    .limit(limit);
}

/** Schedules the event's next retry (null: none), giving its lease back. */
export async function scheduleRetry(db: Db, eventId: string, at: Date | null): Promise<void> {
  await db.update(webhookEvents).set({ nextRetryAt: at, claimedUntil: null }).where(eq(webhookEvents.id, eventId));
}

/** A delivery to the merchant's URL succeeded: it is failing no more. */
export async function markEndpointHealthy(db: Db, merchantId: string): Promise<void> {
  await db.update(merchants).set({ webhookFailingSince: null }).where(and(eq(merchants.id, merchantId), isNotNull(merchants.webhookFailingSince)));
}

/** A delivery failed: since when every delivery to the URL has failed (now, if this is the first). */
export async function markEndpointFailing(db: Db, merchantId: string, now: Date): Promise<Date> {
  const [row] = await db
    .update(merchants)
    .set({ webhookFailingSince: sql`coalesce(${merchants.webhookFailingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(merchants.id, merchantId))
    .returning({ since: merchants.webhookFailingSince });
  return row?.since ?? now;
}

/**
 * Disables the merchant's endpoint (docs/webhooks.md#retries) and drops its events' pending
 * retries, in one statement. True for the one caller that disabled it; false when it already was.
 */
export async function disableEndpoint(db: Db, merchantId: string, now: Date): Promise<boolean> {
  const dropped = db.$with('dropped').as(
    db.update(webhookEvents).set({ nextRetryAt: null }).where(and(eq(webhookEvents.merchantId, merchantId), isNotNull(webhookEvents.nextRetryAt))).returning({ id: webhookEvents.id }),
  );
  const rows = await db
    .with(dropped)
    .update(merchants)
    .set({ webhookDisabledAt: now })
    .where(and(eq(merchants.id, merchantId), isNull(merchants.webhookDisabledAt)))
    .returning({ id: merchants.id });
  return rows.length > 0;
}

/** Where the merchant's people read: the e-mail of its first portal user, if it has one. */
export async function merchantContact(db: Db, merchantId: string) {
  const [row] = await db
    .select({ email: users.email, merchantName: merchants.name, webhookUrl: merchants.webhookUrl, failingSince: merchants.webhookFailingSince })
    .from(merchants)
    .leftJoin(users, eq(users.merchantId, merchants.id))
    .where(eq(merchants.id, merchantId))
    .orderBy(asc(users.createdAt))
    .limit(1);
  return row;
}
