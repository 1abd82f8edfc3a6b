import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client';
import { webhookAttempts, webhookEvents } from '../schema';

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** A plan's webhook events, oldest first, each with its delivery attempts (scoped to the merchant). */
export async function listPlanWebhookEvents(db: Db, { merchantId, planId }: { merchantId: string; planId: string }) {
  const events = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.merchantId, merchantId), eq(webhookEvents.planId, planId)))
    .orderBy(asc(webhookEvents.id));
  const attempts = events.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.eventId,
            events.map((e) => e.id),
          ),
        )
        .orderBy(asc(webhookAttempts.id))
    : [];
  return events.map((event) => ({ event, attempts: attempts.filter((a) => a.eventId === event.id) }));
}
