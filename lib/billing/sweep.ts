import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/idempotency';
import { claimDuePlans, releaseSweepClaims } from '@/db/queries/plans';
import { runBounded, sweepLimits } from '@/lib/bounded';
import { env } from '@/lib/env';
import type { PaymentProcessor, ProcessorSource } from '@/lib/processors';
import { runRenewalLinks } from '@/lib/settlement/renewal-links';
import { chargeRenewal, type RenewalDue, renewalDueOf } from './renewals';
import { runTrialNotices } from '@/lib/settlement/trial-notices';
import { endScheduledCancellations } from '@/lib/plans/cancel-at';
import type { SweepSummary } from './schemas';

// The renewal sweep in this process: the embedded setup's timer, the test clock and the bench.
// Performance (docs/performance.md#the-days-bursts): due plans are claimed in leased batches as the
// line drains, charges bounded overall and per merchant (lib/bounded.ts); the plan's lock and the
// one-PENDING index still make each attempt exactly once.

/** How many due plans one claim takes at most. */
const CLAIM_BATCH = 200;
/** The transaction ids a sweep lists in its summary at most (the test clock's reply). */
const LISTED_IDS = 1000;

export interface SweepOptions {
  now?: Date;
  /** One merchant's plans, when its test clock moves (lib/billing/test-clock.ts); otherwise those of every merchant without a test clock. */
  merchantId?: string;
  /** Charges in flight at once, all merchants together (SWEEP_CONCURRENCY). */
  concurrency?: number;
  /** Charges of one merchant in flight at once (SWEEP_MERCHANT_CONCURRENCY). */
  merchantConcurrency?: number;
  /** How long a claim lasts if this process dies holding it. */
  leaseMs?: number;
  /** How long a merchant refused for rate again and again is waited for before its plans are left to the next sweep. */
  giveUpAfterMs?: number;
  firstBackoffMs?: number;
}

/** The processor of each merchant, looked up once per sweep rather than once per charge. */
function memoized(source: ProcessorSource): ProcessorSource {
  if (typeof source !== 'function') return source;
  const known = new Map<string, Promise<PaymentProcessor | null>>();
  return (merchantId) => {
    let found = known.get(merchantId);
    if (!found) {
      found = source(merchantId);
      known.set(merchantId, found);
      found.catch(() => known.delete(merchantId));
    }
    return found;
  };
}

/** Charges every attempt due at `now`, within SweepOptions' limits. */
export async function runRenewalSweep(db: Db, processor: ProcessorSource, options: SweepOptions = {}): Promise<Omit<SweepSummary, 'idempotencyKeysDeleted'>> {
  const now = options.now ?? new Date();
  const settings = env();
  const limits = sweepLimits(settings);
  // Trials ending in 3 days are told first (docs/billing.md#trials); their ends are charged below, as renewals.
  const merchantId = options.merchantId;
  // Plans cancelled at the end of their period end first, so none of them is charged below.
  const ended = await endScheduledCancellations(db, now, { merchantId });
  const trialNotices = await runTrialNotices(db, now, { merchantId });
  const counts = { due: 0, approved: 0, declined: 0, error: 0, pending: 0, skipped: 0 };
  const transactionIds: string[] = [];
  const cancelledPlanIds: string[] = [...ended];
  const processors = memoized(processor);
  // A claim names this sweep: a plan it attempted stays claimed until the sweep ends, so one
  // attempt per plan per sweep, even when a retry is already due again at `now` (a test clock).
  const claim = `swp_${randomUUID()}`;
  const leaseMs = options.leaseMs ?? settings.SWEEP_LEASE_SECONDS * 1000;
  try {
    await runBounded<RenewalDue & { merchantId: string }>(
      {
        next: async (max, held) => {
          const plans = await claimDuePlans(db, { now, limit: Math.min(max, CLAIM_BATCH), claim, leaseMs, merchantId, exceptMerchants: [...held] });
          return plans.map((plan) => ({ ...renewalDueOf(plan), merchantId: plan.merchantId }));
        },
        keyOf: (due) => due.merchantId,
        run: async (due) => {
          const outcome = await chargeRenewal(db, processors, due, now);
          if (outcome.result === 'rate_limited') return { retryAfterMs: outcome.retryAfterMs };
          counts.due++;
          if (outcome.result === 'in_progress' || outcome.result === 'skipped') counts.skipped++;
          else counts[outcome.result === 'APPROVED' ? 'approved' : outcome.result === 'DECLINED' ? 'declined' : outcome.result === 'ERROR' ? 'error' : 'pending']++;
          if ('transactionId' in outcome && transactionIds.length < LISTED_IDS) transactionIds.push(outcome.transactionId);
          if ('planStatus' in outcome && outcome.planStatus === 'CANCELLED') cancelledPlanIds.push(outcome.planId);
        },
        // A merchant still refused for rate: its plans go back at once, for the next sweep.
        dropped: (items) => releaseSweepClaims(db, claim, items.map((due) => due.planId)),
      },
      {
        overall: options.concurrency ?? limits.overall,
        perKey: options.merchantConcurrency ?? limits.perKey,
        firstBackoffMs: options.firstBackoffMs,
        giveUpAfterMs: options.giveUpAfterMs,
      },
    );
  } finally {
    await releaseSweepClaims(db, claim);
  }
  // Then the plans collected by link: their e-mails, reminders and ends of grace.
  const links = await runRenewalLinks(db, now, { merchantId });
  return {
    now: now.getTime(),
    ...counts,
    transactionIds,
    cancelledPlanIds: [...cancelledPlanIds, ...links.cancelledPlanIds],
    renewalLinks: { issued: links.issued, reminded: links.reminded, expired: links.cancelledPlanIds.length },
    trialNotices,
  };
}

/** POST /admin/billing/run: the renewal sweep and the idempotency retention as of `now`. */
export async function runTestClock(db: Db, processor: ProcessorSource, now: Date): Promise<SweepSummary> {
  const summary = await runRenewalSweep(db, processor, { now });
  return { ...summary, idempotencyKeysDeleted: await deleteExpiredIdempotencyKeys(db) };
}
