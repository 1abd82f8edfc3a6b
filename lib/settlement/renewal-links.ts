import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { lockPlan, type PlanRow, transitionPlan } from '@/db/queries/plans';
import {
  advanceRenewalLink,
  closeRenewalLink,
  findPlansAwaitingRenewalLink,
  findRenewalLinkStepsDue,
  getOpenRenewalLink,
  getRenewalLink,
  insertRenewalLink,
  listOpenRenewalLinks,
  type RenewalLinkRow,
} from '@/db/queries/renewal-links';
import { getPendingTransaction, getPlanByToken, type TransactionRow } from '@/db/queries/transactions';
import { type CancelReason, cancelReasonText, noteRenewalLink, notePlanChange, type RenewalStage } from '@/lib/notices';
import { env } from '@/lib/env';
import { createId, randomBase62 } from '@/lib/ids';
import { log } from '@/lib/log';
import type { Outbox } from '@/lib/outbox';
import { inTransaction } from '@/lib/unit-of-work';
import { CHECKOUT_TOKEN_LENGTH } from '@/lib/widget/protocol';
import { clampRenewalSettings, DAY_MS, issueTime, nextStepAt, reminderTimes, type RenewalSettings } from '@/lib/calendar/grace';
import { amountForPeriod, applyScheduled, followingPeriodDue, periodDueOf } from '@/lib/calendar/schedule';
import { chargesOf } from '@/lib/coupons/discount';

// Renewal links (docs/billing.md#renewal-links): one checkout link per period for a plan that cannot
// be charged without its payer. Unique indexes hold one per period, one OPEN per plan, one approval per link.

export function renewalUrl(token: string): string {
  return `${env().APP_URL}/pay/${token}`;
}

export async function openRenewalUrl(db: Db, planId: string): Promise<string | null> {
  const open = await getOpenRenewalLink(db, planId);
  return open ? renewalUrl(open.token) : null;
}

/** Soonest expiry first; each at what its link charges (its list price less the coupon). */
export async function awaitingRenewals(db: Db, merchantId: string, limit = 100) {
  const rows = await listOpenRenewalLinks(db, { merchantId, limit });
  return rows.map(({ link, plan }) => ({
    planId: plan.id,
    description: plan.description,
    customerEmail: plan.customerEmail,
    amount: chargesOf(plan, link.amount).now,
    expiresAt: link.expiresAt,
    url: renewalUrl(link.token),
  }));
}

/** While a payment is at the bank at the end of grace, the plan waits this long before looking again. */
export const PENDING_AT_EXPIRY_RECHECK_MS = 10 * 60 * 1000;
/** The largest reminderDays. */
const ISSUE_HORIZON_MS = 10 * DAY_MS;

export function linkIssueTime(plan: PlanRow & { nextChargeDate: Date }, settings: RenewalSettings): Date {
  return issueTime(plan.nextChargeDate, settingsFor(plan, plan.nextChargeDate, settings));
}

/** grace.ts clamps short periods. */
function settingsFor(plan: PlanRow, due: Date, settings: RenewalSettings): RenewalSettings {
  return clampRenewalSettings(settings, followingPeriodDue(plan, due).getTime() - due.getTime());
}

/** Links and plans share /pay/<token>. */
async function freshToken(tx: Db): Promise<string> {
  for (;;) {
    const token = randomBase62(CHECKOUT_TOKEN_LENGTH);
    if (!(await getPlanByToken(tx, token))) return token;
  }
}

/** Issues the period's link in the caller's transaction; a second call tells nobody. */
export async function issueRenewalLink(
  tx: Db,
  outbox: Outbox,
  plan: PlanRow,
  { source, settings, now }: { source: 'reminder' | 'ladder'; settings: RenewalSettings; now: Date },
): Promise<{ link: RenewalLinkRow; created: boolean }> {
  const period = periodDueOf(plan);
  const { graceDays } = settingsFor(plan, period, settings);
  const from = source === 'ladder' ? now : period;
  const expiresAt = new Date(from.getTime() + graceDays * DAY_MS);
  const schedule = { createdAt: now, period, expiresAt };
  const { link, created } = await insertRenewalLink(tx, {
    id: createId('rnl', now.getTime()),
    token: await freshToken(tx),
    planId: plan.id,
    merchantId: plan.merchantId,
    period,
    // A price change scheduled from this period on is what it costs.
    amount: amountForPeriod(plan, period),
    expiresAt,
    source,
    nextStepAt: nextStepAt(schedule, 0),
    createdAt: now,
  });
  if (created) await noteRenewalLink(tx, outbox, plan, { ...link, url: renewalUrl(link.token) }, source === 'ladder' ? 'ladder' : 'issued', now);
  return { link, created };
}

/** After the last failed retry, with the ladder on: the plan is collected by link. */
export async function stepDownToLink(tx: Db, outbox: Outbox, plan: PlanRow, now: Date): Promise<PlanRow | null> {
  const merchant = await getMerchant(tx, plan.merchantId);
  if (!merchant?.renewalLadder) return null;
  const settings = { reminderDays: merchant.reminderDays, graceDays: merchant.graceDays };
  if (settingsFor(plan, periodDueOf(plan), settings).graceDays === 0) return null;
  // Failures stay at the last retry, so the due date is still nextChargeDate less its offset.
  const moved = await transitionPlan(tx, plan.id, ['ACTIVE'], { renewalCollection: 'LINK' });
  if (!moved) return null;
  await issueRenewalLink(tx, outbox, moved, { source: 'ladder', settings, now });
  return moved;
}

export function chargedFromSavedMethod(plan: Pick<PlanRow, 'paymentMethodToken'>, txn: Pick<TransactionRow, 'paymentMethodToken'>): boolean {
  return plan.paymentMethodToken !== null && txn.paymentMethodToken === plan.paymentMethodToken;
}

/** An approval pays the period (late if the link had closed); a customer's decline changes nothing; a
saved method's hands the period back to the link. */
export async function settleLinkPayment(tx: Db, plan: PlanRow, txn: TransactionRow): Promise<PlanRow> {
  if (!txn.renewalLinkId) return plan;
  if (txn.status === 'DECLINED' || txn.status === 'ERROR') {
    if (plan.status !== 'ACTIVE' || plan.renewalCollection !== 'AUTOMATIC' || !chargedFromSavedMethod(plan, txn)) return plan;
    return (await transitionPlan(tx, plan.id, ['ACTIVE'], { renewalCollection: 'LINK' })) ?? plan;
  }
  if (txn.status !== 'APPROVED') return plan;
  const link = plan.status === 'ACTIVE' ? await closeRenewalLink(tx, txn.renewalLinkId, 'PAID') : undefined;
  if (!link) {
    log.warn('a renewal link was paid after it closed: a late payment, voided or to be refunded', { planId: plan.id, transactionId: txn.id, method: txn.paymentMethodType });
    return plan;
  }
  const pse = txn.paymentMethodType === 'PSE';
  // Paid by PSE after a method was saved: renewals stay on that method.
  const keepSaved = pse && plan.renewalCollection === 'AUTOMATIC' && plan.paymentMethodToken !== null;
  const moved = await transitionPlan(tx, plan.id, ['ACTIVE'], {
    nextChargeDate: followingPeriodDue(plan, link.period),
    renewalFailures: 0,
    renewalCollection: pse && !keepSaved ? 'LINK' : 'AUTOMATIC',
    paymentMethodToken: pse ? (keepSaved ? plan.paymentMethodToken : null) : txn.paymentMethodToken,
    ...applyScheduled(plan, link.period),
  });
  return moved ?? plan;
}

export type LinkStepResult = 'issued' | 'reminded' | 'cancelled' | 'waiting' | 'skipped';

async function issueForPlan(db: Db, planId: string, settings: RenewalSettings, now: Date): Promise<LinkStepResult> {
  return inTransaction(db, async (tx, outbox): Promise<LinkStepResult> => {
    const plan = await lockPlan(tx, planId);
    if (plan?.status !== 'ACTIVE' || plan.renewalCollection !== 'LINK' || plan.renewalFailures !== 0 || !plan.nextChargeDate) return 'skipped';
    if (issueTime(plan.nextChargeDate, settingsFor(plan, plan.nextChargeDate, settings)) > now) return 'skipped';
    if (plan.cancelAt && plan.cancelAt <= plan.nextChargeDate) return 'skipped';
    if (await getOpenRenewalLink(tx, plan.id)) return 'skipped';
    return (await issueRenewalLink(tx, outbox, plan, { source: 'reminder', settings, now })).created ? 'issued' : 'skipped';
  });
}

/** The latest reminder, or at the end of grace the plan CANCELLED (`unpaid`). */
export async function runRenewalLinkStep(db: Db, linkId: string, now: Date): Promise<{ result: LinkStepResult; planId: string }> {
  return inTransaction(db, async (tx, outbox) => {
    const found = await getRenewalLink(tx, linkId);
    if (!found) return { result: 'skipped' as const, planId: '' };
    const plan = await lockPlan(tx, found.planId);
    const link = await getRenewalLink(tx, linkId);
    const done = (result: LinkStepResult) => ({ result, planId: found.planId });
    if (!link || link.status !== 'OPEN' || !link.nextStepAt || link.nextStepAt > now) return done('skipped');
    if (plan.status !== 'ACTIVE') {
      await closeRenewalLink(tx, link.id, plan.status === 'PAUSED' ? 'SUPERSEDED' : 'CANCELLED');
      return done('skipped');
    }
    if (now < link.expiresAt) {
      const times = reminderTimes(link);
      const due = times.findLastIndex((t) => t <= now);
      if (due < link.remindersSent) return done('skipped');
      await advanceRenewalLink(tx, link.id, { remindersSent: due + 1, nextStepAt: nextStepAt(link, due + 1) });
      const stage: RenewalStage = times[due]!.getTime() === link.period.getTime() ? 'due' : 'final';
      await noteRenewalLink(tx, outbox, plan, { ...link, url: renewalUrl(link.token) }, stage, now);
      return done('reminded');
    }
    if (await getPendingTransaction(tx, plan.id)) {
      await advanceRenewalLink(tx, link.id, { remindersSent: link.remindersSent, nextStepAt: new Date(now.getTime() + PENDING_AT_EXPIRY_RECHECK_MS) });
      return done('waiting');
    }
    await closeRenewalLink(tx, link.id, 'EXPIRED');
    const reason: CancelReason = { code: 'unpaid' };
    const cancelled = await transitionPlan(tx, plan.id, ['ACTIVE'], { status: 'CANCELLED', cancelReason: cancelReasonText(reason) });
    if (!cancelled) return done('skipped');
    await notePlanChange(tx, outbox, { before: plan, after: cancelled }, 'subscription.cancelled', { now, reason });
    return done('cancelled');
  });
}

export interface RenewalLinkSweep {
  issued: number;
  reminded: number;
  cancelledPlanIds: string[];
}

/** First e-mails due, then each OPEN link's step, each under the plan's lock. */
export async function runRenewalLinks(
  db: Db,
  now: Date,
  { merchantId, pageSize = 500 }: { merchantId?: string; pageSize?: number } = {},
): Promise<RenewalLinkSweep> {
  const summary: RenewalLinkSweep = { issued: 0, reminded: 0, cancelledPlanIds: [] };
  const horizon = new Date(now.getTime() + ISSUE_HORIZON_MS);
  let after: { nextChargeDate: Date; id: string } | undefined;
  for (;;) {
    const page = await findPlansAwaitingRenewalLink(db, { horizon, limit: pageSize, after, merchantId });
    for (const { plan, reminderDays, graceDays } of page) {
      if ((await issueForPlan(db, plan.id, { reminderDays, graceDays }, now)) === 'issued') summary.issued++;
    }
    if (page.length < pageSize) break;
    const last = page[page.length - 1]!.plan;
    after = { nextChargeDate: last.nextChargeDate!, id: last.id };
  }
  // One step per link per sweep.
  for (const { id } of await findRenewalLinkStepsDue(db, { now, limit: pageSize, merchantId })) {
    const step = await runRenewalLinkStep(db, id, now);
    if (step.result === 'reminded') summary.reminded++;
    if (step.result === 'cancelled') summary.cancelledPlanIds.push(step.planId);
  }
  return summary;
}
