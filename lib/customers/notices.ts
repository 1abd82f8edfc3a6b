import type { Db } from '@/db/client';
import type { PlanRow, TransactionRow } from '@/db/queries/plans';
import type { RenewalLinkRow } from '@/db/queries/renewal-links';
import type { EmailKind } from '@/db/schema';
import { queueCustomerEmail } from '@/lib/email/outbox';
import { sendEmails } from '@/lib/email/send';
import type { RenewalStage } from '@/lib/email/templates';
import { dispatchWebhookEvents } from '@/lib/webhooks/dispatch';
import { recordLifecycleEvent } from '@/lib/webhooks/events';
import type { LifecycleEventType } from '@/lib/webhooks/payload';

// What a change to a plan tells the merchant and the customer (docs/customers.md): lifecycle
// webhook events, for the merchants who chose them, and the customer's e-mails (receipt, failed
// renewal, cancellation). Written inside the database transaction that made the change, handed
// to delivery once it commits; the sweepers take whatever a crash leaves behind.

export interface Notices {
  eventIds: string[];
  emailIds: string[];
}

export const NO_NOTICES: Notices = { eventIds: [], emailIds: [] };

export function merge(...all: Notices[]): Notices {
  return { eventIds: all.flatMap((n) => n.eventIds), emailIds: all.flatMap((n) => n.emailIds) };
}

async function lifecycle(tx: Db, plan: PlanRow, type: LifecycleEventType, now: Date, extra?: Parameters<typeof recordLifecycleEvent>[4]): Promise<Notices> {
  const id = await recordLifecycleEvent(tx, plan, type, now, extra);
  return { eventIds: id ? [id] : [], emailIds: [] };
}

async function email(tx: Db, kind: EmailKind, plan: PlanRow, now: Date, txn?: TransactionRow): Promise<Notices> {
  return { eventIds: [], emailIds: [await queueCustomerEmail(tx, kind, { plan, txn, now })] };
}

/** A plan change made by the merchant or the customer (pause, resume, cancel, a new payment method). */
export async function notePlanChange(tx: Db, plan: PlanRow, type: LifecycleEventType, now: Date = new Date()): Promise<Notices> {
  const event = await lifecycle(tx, plan, type, now);
  return type === 'subscription.cancelled' ? merge(event, await email(tx, 'cancelled', plan, now)) : event;
}

/**
 * What a settled charge tells (lib/settlement/settle.ts, once for every caller): a receipt for an
 * approval; a notice with the retry date for a failed renewal; the activation of a RECURRING
 * plan; and, after the last failed retry, the cancellation.
 */
export async function noteSettlement(tx: Db, before: PlanRow, after: PlanRow, txn: TransactionRow, now: Date): Promise<Notices> {
  const notices: Notices[] = [];
  if (txn.status === 'APPROVED') notices.push(await email(tx, 'receipt', after, now, txn));
  if (before.status === 'PENDING_ACTIVATION' && after.status === 'ACTIVE') notices.push(await lifecycle(tx, after, 'subscription.activated', now));
  // A retry is announced only for a plan still charged automatically: a link's failed payment
  // changes nothing, and the ladder's link e-mail (noteRenewalLink) replaces the notice.
  const failedRenewal = txn.kind === 'RENEWAL' && !txn.renewalLinkId && (txn.status === 'DECLINED' || txn.status === 'ERROR');
  if (failedRenewal && after.status === 'ACTIVE' && after.renewalCollection === 'AUTOMATIC' && after.renewalFailures > 0) {
    notices.push(await email(tx, 'renewal_failed', after, now, txn));
  }
  if (before.status !== 'CANCELLED' && after.status === 'CANCELLED') {
    notices.push(await lifecycle(tx, after, 'subscription.cancelled', now), await email(tx, 'cancelled', after, now));
  }
  return merge(...notices);
}

/**
 * A renewal link's e-mail (docs/billing.md#renewal-links) and, when it is issued, the opt-in
 * `subscription.renewal_due` event with its URL and expiry, for the merchant's own channels.
 */
export async function noteRenewalLink(
  tx: Db,
  plan: PlanRow,
  link: Pick<RenewalLinkRow, 'period' | 'expiresAt' | 'amount'> & { url: string },
  stage: RenewalStage,
  now: Date,
): Promise<Notices> {
  const renewal = { url: link.url, stage, period: link.period, expiresAt: link.expiresAt, amount: link.amount };
  const mail: Notices = { eventIds: [], emailIds: [await queueCustomerEmail(tx, 'renewal_due', { plan, renewal, now })] };
  if (stage !== 'issued' && stage !== 'ladder') return mail;
  const event = await lifecycle(tx, plan, 'subscription.renewal_due', now, {
    renewal: { url: link.url, expiresAt: link.expiresAt.getTime(), amount: link.amount, period: link.period.getTime() },
  });
  return merge(event, mail);
}

/** Hands the committed notices to delivery; never throws (the sweepers take what is lost). */
export function sendNotices(notices: Notices): void {
  dispatchWebhookEvents(notices.eventIds);
  sendEmails(notices.emailIds);
}
