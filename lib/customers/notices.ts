import type { Db } from '@/db/client';
import type { PlanRow, TransactionRow } from '@/db/queries/plans';
import { dispatchWebhookEvents } from '@/lib/webhooks/dispatch';
import { recordLifecycleEvent } from '@/lib/webhooks/events';
import type { LifecycleEventType } from '@/lib/webhooks/payload';

// What a change to a plan tells the merchant and the customer (docs/customers.md): lifecycle
// webhook events, for the merchants who chose them. Written inside the database transaction that
// made the change, handed to delivery once it commits.

export interface Notices {
  eventIds: string[];
}

export const NO_NOTICES: Notices = { eventIds: [] };

function merge(...all: Notices[]): Notices {
  return { eventIds: all.flatMap((n) => n.eventIds) };
}

async function lifecycle(tx: Db, plan: PlanRow, type: LifecycleEventType, now: Date): Promise<Notices> {
  const id = await recordLifecycleEvent(tx, plan, type, now);
  return { eventIds: id ? [id] : [] };
}

/** A plan change made by the merchant or the customer (pause, resume, cancel, a new payment method). */
export async function notePlanChange(tx: Db, plan: PlanRow, type: LifecycleEventType, now: Date = new Date()): Promise<Notices> {
  return lifecycle(tx, plan, type, now);
}

/**
 * What a settled charge did to its plan (lib/settlement/settle.ts): a first approval activates a
 * RECURRING plan; the last failed renewal retry cancels it.
 */
export async function noteSettlement(tx: Db, before: PlanRow, after: PlanRow, txn: TransactionRow, now: Date): Promise<Notices> {
  const notices: Notices[] = [];
  if (before.status === 'PENDING_ACTIVATION' && after.status === 'ACTIVE') notices.push(await lifecycle(tx, after, 'subscription.activated', now));
  if (before.status !== 'CANCELLED' && after.status === 'CANCELLED') notices.push(await lifecycle(tx, after, 'subscription.cancelled', now));
  void txn;
  return merge(...notices);
}

/** Hands the committed notices to delivery; never throws (the sweepers take what is lost). */
export function sendNotices(notices: Notices): void {
  dispatchWebhookEvents(notices.eventIds);
}
