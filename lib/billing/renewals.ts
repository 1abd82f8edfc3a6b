import type { Db } from '@/db/client';
import { findDuePlans, type PlanRow } from '@/db/queries/plans';
import { renewalFactsOf } from '@/db/queries/renewal-facts';
import { withdrawUnsentAttempt } from '@/db/queries/transactions';
import { errorFields, log } from '@/lib/log';
import { type ChargeResult, type ProcessorSource, resolveProcessor } from '@/lib/processors';
import { savedMethodType } from '@/lib/processors/processor';
import { chargeSavedMethod, openCharge, type Prepared } from '@/lib/settlement/attempt';
import { chargedFromSavedMethod } from '@/lib/settlement/renewal-links';
import { NEVER_RECEIVED, type Settlement, settleCharge } from '@/lib/settlement/settle';
import { periodDueOf, pricingForPeriod } from '@/lib/calendar/schedule';
import { closeUsagePeriod } from '@/db/queries/usage';
import { discountFor } from '@/lib/coupons/discount';
import { usageCharge } from '@/lib/plans/usage';

// Renewals (docs/billing.md#renewals), one period at a time: retries 1, 3 and 5 days after the due
// date (capped to half a weekly period), a fourth failure cancels. Every attempt goes through
// lib/settlement/attempt.ts, so nothing is charged twice.

export { MAX_RENEWAL_FAILURES, periodDueOf } from '@/lib/calendar/schedule';

/** How long an attempt may stay PENDING with no processor id before another worker takes it over. */
const ATTEMPT_LEASE_MS = 10 * 60 * 1000;

export interface RenewalDue {
  planId: string;
  /** Whose processor limits the attempt waits on (absent in events sent before it was added). */
  merchantId?: string;
  period: number;
  attempt: number;
}

export type RenewalOutcome =
  | { planId: string; result: 'APPROVED' | 'DECLINED' | 'ERROR'; transactionId: string; planStatus: PlanRow['status'] }
  | { planId: string; result: 'PENDING'; transactionId: string }
  | { planId: string; result: 'in_progress' | 'skipped' }
  /** Refused for rate: nothing charged or recorded; try again later. */
  | { planId: string; result: 'rate_limited'; retryAfterMs: number | null };

/** Inngest drops a second event with the same id. */
export function renewalEventId(due: RenewalDue): string {
  return `renewal-${due.planId}-${due.period}-${due.attempt}`;
}

export function renewalDueOf(plan: Pick<PlanRow, 'id' | 'merchantId' | 'renewalFailures' | 'intervalUnit' | 'intervalCount'> & { nextChargeDate: Date }): RenewalDue {
  return { planId: plan.id, merchantId: plan.merchantId, period: periodDueOf(plan).getTime(), attempt: plan.renewalFailures };
}

/** Every attempt due at `now`, in pages: of `merchantId` only (its test clock), else of merchants without one. */
export async function* findDueRenewals(
  db: Db,
  now: Date,
  { pageSize = 1000, merchantId }: { pageSize?: number; merchantId?: string } = {},
): AsyncGenerator<RenewalDue[]> {
  let after: { nextChargeDate: Date; id: string } | undefined;
  for (;;) {
    const page = await findDuePlans(db, { now, limit: pageSize, after, merchantId });
    if (page.length) yield page.map(renewalDueOf);
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { nextChargeDate: last.nextChargeDate, id: last.id };
  }
}

/** A metered plan's usage is billed in arrears beside the fixed part, which alone takes the coupon. */
async function meteredPart(tx: Db, plan: PlanRow, fixed: number, due: Date) {
  const usageUnits = await closeUsagePeriod(tx, plan.id, due);
  const usageAmount = usageCharge(plan, usageUnits);
  const discount = discountFor(plan, fixed);
  return { amount: fixed - discount + usageAmount, discount, usageUnits, usageAmount };
}

/** Under the plan's lock: start, take over an abandoned attempt, or find nothing to do. */
function prepareRenewal(due: RenewalDue, now: Date) {
  return async (tx: Db, plan: PlanRow): Promise<Prepared> => {
    // A plan collected by link is never charged; a trial's end is charged as a renewal.
    const charged = plan?.status === 'ACTIVE' || plan?.status === 'TRIALING';
    if (!charged || !plan.nextChargeDate || plan.renewalCollection !== 'AUTOMATIC') return 'skip';
    // One statement after the lock: its pending attempt, open link and saved card.
    const { pending, openLink: open, savedCard } = await renewalFactsOf(tx, plan.id, plan.paymentMethodToken);
    if (pending) {
      // A payment on the link's page is under way.
      if (pending.kind !== 'RENEWAL' || (pending.renewalLinkId && !chargedFromSavedMethod(plan, pending))) return 'skip';
      if (pending.gatewayTransactionId) return { resume: pending };
      const abandoned = now.getTime() - pending.chargeDate.getTime() >= ATTEMPT_LEASE_MS;
      return abandoned ? { resume: pending } : 'in_progress';
    }
    const current = plan.nextChargeDate <= now && periodDueOf(plan).getTime() === due.period && plan.renewalFailures === due.attempt;
    // Never charged for a period from which the plan is cancelled.
    if (!current || (plan.cancelAt && plan.cancelAt.getTime() <= due.period)) return 'skip';
    // A method saved while the period's link is open: this charge is one of that link's payments,
    // at its amount, so the period is paid once.
    const link = open && open.period.getTime() === due.period ? open : null;
    const pricing = pricingForPeriod(plan, new Date(due.period));
    return {
      kind: 'RENEWAL',
      amount: link ? link.amount : pricing.unitAmount * pricing.quantity,
      ...(link ? {} : pricing),
      ...(link || plan.usageUnitAmount === null ? {} : await meteredPart(tx, plan, pricing.unitAmount * pricing.quantity, new Date(due.period))),
      periodStart: new Date(due.period),
      paymentMethodToken: plan.paymentMethodToken,
      paymentMethodType: savedMethodType(plan.paymentMethodToken),
      ...(savedMethodType(plan.paymentMethodToken) === 'CARD' ? savedCard : {}),
      ...(link ? { renewalLinkId: link.id } : {}),
    };
  };
}

function renewalOutcome(planId: string, { transaction, plan, settled }: Settlement): RenewalOutcome {
  if (transaction.status === 'PENDING') return { planId, result: 'PENDING', transactionId: transaction.id };
  if (!settled) {
    log.warn('renewal already settled by another worker', { planId, transactionId: transaction.id, status: transaction.status });
    return { planId, result: 'skipped' };
  }
  return { planId, result: transaction.status as 'APPROVED' | 'DECLINED' | 'ERROR', transactionId: transaction.id, planStatus: plan.status };
}

/** One attempt of one plan for one period, exactly once (Inngest and the in-process timer alike). */
export async function chargeRenewal(db: Db, processors: ProcessorSource, due: RenewalDue, now: Date = new Date()): Promise<RenewalOutcome> {
  const opened = await openCharge(db, { plan: due.planId, now, prepare: prepareRenewal(due, now) });
  if (opened.status !== 'opened') return { planId: due.planId, result: opened.status };
  const { txn, plan } = opened;
  // None in production without Wompi keys: the attempt fails as a charge the processor never got.
  const processor = await resolveProcessor(processors, plan.merchantId).catch((error: unknown) => {
    log.error('could not resolve the processor of a renewal', { planId: due.planId, ...errorFields(error) });
    return null;
  });
  const pending: RenewalOutcome = { planId: due.planId, result: 'PENDING', transactionId: txn.id };
  if (!processor) {
    if (txn.gatewayTransactionId) return pending;
    return renewalOutcome(due.planId, await settleCharge(db, { planId: due.planId, transactionId: txn.id }, NEVER_RECEIVED, { now }));
  }
  if (txn.gatewayTransactionId) {
    // Charged already: only the answer is awaited; a failure to ask is not the charge's.
    let result: ChargeResult;
    try {
      result = await processor.retrieve(txn.gatewayTransactionId);
    } catch (error) {
      log.error('payment processor did not answer about a renewal', { planId: due.planId, transactionId: txn.id, ...errorFields(error) });
      return pending;
    }
    if (result.status === 'PENDING') return pending;
    return renewalOutcome(due.planId, await settleCharge(db, { planId: due.planId, transactionId: txn.id }, result, { now }));
  }
  const sent = await chargeSavedMethod(db, processor, opened, now);
  if (sent.rateLimited) {
    // Refused before it was handled: taken back, no failure of the plan.
    await withdrawUnsentAttempt(db, txn.id);
    return { planId: due.planId, result: 'rate_limited', retryAfterMs: sent.rateLimited.retryAfterMs };
  }
  return renewalOutcome(due.planId, sent);
}
