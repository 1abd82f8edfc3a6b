import type { Db } from '@/db/client';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/idempotency';
import type { ProcessorSource } from '@/lib/payments';
import { runRenewalLinks } from '@/lib/settlement/renewal-links';
import { chargeRenewal, findDueRenewals, type RenewalOutcome } from './renewals';
import { runTrialNotices } from '@/lib/settlement/trial-notices';
import type { SweepSummary } from './schemas';

// The renewal sweep run in this process: by the timer of the embedded setup (docs/operations.md#running-it), the
// test clock (POST /admin/billing/run) and the benchmark. With Inngest the cron function finds the
// same attempts and a per-plan function charges each with the same chargeRenewal.

/**
 * Charges every attempt due at `now`, `concurrency` at a time: of `merchantId` only when its test
 * clock moves (lib/billing/test-clock.ts), otherwise of every merchant without a test clock.
 */
export async function runRenewalSweep(
  db: Db,
  processor: ProcessorSource,
  { now = new Date(), concurrency = 4, merchantId }: { now?: Date; concurrency?: number; merchantId?: string } = {},
): Promise<Omit<SweepSummary, 'idempotencyKeysDeleted'>> {
  // Trials ending in 3 days are told first (docs/billing.md#trials); their ends are charged below, as renewals.
  const trialNotices = await runTrialNotices(db, now, { merchantId });
  const outcomes: RenewalOutcome[] = [];
  // One attempt per plan per sweep: a failed attempt's retry may already be due at `now` (a test
  // clock moved days on) and a later page would find it; it waits for the next sweep instead.
  const attempted = new Set<string>();
  for await (const found of findDueRenewals(db, now, { merchantId })) {
    const page = found.filter((due) => !attempted.has(due.planId));
    for (const due of page) attempted.add(due.planId);
    let next = 0;
    const worker = async () => {
      while (next < page.length) outcomes.push(await chargeRenewal(db, processor, page[next++]!, now));
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, page.length) }, worker));
  }
  const count = (result: RenewalOutcome['result']) => outcomes.filter((o) => o.result === result).length;
  // Then the plans collected by link: their e-mails, reminders and ends of grace.
  const links = await runRenewalLinks(db, now, { merchantId });
  return {
    now: now.getTime(),
    due: outcomes.length,
    approved: count('APPROVED'),
    declined: count('DECLINED'),
    error: count('ERROR'),
    pending: count('PENDING'),
    skipped: count('skipped') + count('in_progress'),
    transactionIds: outcomes.flatMap((o) => ('transactionId' in o ? [o.transactionId] : [])),
    cancelledPlanIds: [...outcomes.flatMap((o) => ('planStatus' in o && o.planStatus === 'CANCELLED' ? [o.planId] : [])), ...links.cancelledPlanIds],
    renewalLinks: { issued: links.issued, reminded: links.reminded, expired: links.cancelledPlanIds.length },
    trialNotices,
  };
}

/**
 * The test clock (POST /admin/billing/run): the renewal sweep as if it were `now`, then the
 * idempotency retention job, as the scheduled jobs would have run them.
 */
export async function runTestClock(db: Db, processor: ProcessorSource, now: Date): Promise<SweepSummary> {
  const summary = await runRenewalSweep(db, processor, { now });
  return { ...summary, idempotencyKeysDeleted: await deleteExpiredIdempotencyKeys(db) };
}
