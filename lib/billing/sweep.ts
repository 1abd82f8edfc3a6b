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
import { resumeDuePauses } from '@/lib/plans/lifecycle';
import type { SweepSummary } from './schemas';

// The renewal sweep in this process (embedded timer, test clock, bench): due plans claimed in
// leased batches, charges bounded overall and per merchant (lib/bounded.ts).

const CLAIM_BATCH = 200;
const LISTED_IDS = 1000;

export interface SweepOptions {
  now?: Date;
  /** One merchant's plans (its test clock); otherwise every merchant without a test clock. */
  merchantId?: string;
  /** SWEEP_CONCURRENCY */
  concurrency?: number;
  /** SWEEP_MERCHANT_CONCURRENCY */
  merchantConcurrency?: number;
  leaseMs?: number;
  /** How long a merchant refused for rate is waited for before its plans go to the next sweep. */
  giveUpAfterMs?: number;
  firstBackoffMs?: number;
}

/** Looked up once per sweep rather than once per charge. */
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

export async function runRenewalSweep(db: Db, processor: ProcessorSource, options: SweepOptions = {}): Promise<Omit<SweepSummary, 'idempotencyKeysDeleted'>> {
  const now = options.now ?? new Date();
  const settings = env();
  const limits = sweepLimits(settings);
  // Trials ending in 3 days are told first; their ends are charged below as renewals.
  const merchantId = options.merchantId;
  const ended = await endScheduledCancellations(db, now, { merchantId });
  // Plans paused until now resume before renewals are looked for (docs/billing.md#pause-until-a-date).
  await resumeDuePauses(db, now, { merchantId });
  const trialNotices = await runTrialNotices(db, now, { merchantId });
  const counts = { due: 0, approved: 0, declined: 0, error: 0, pending: 0, skipped: 0 };
  const transactionIds: string[] = [];
  const cancelledPlanIds: string[] = [...ended];
  const processors = memoized(processor);
  // A claim names this sweep, so one attempt per plan per sweep even when a retry is due again at `now`.
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
        // Still refused for rate: its plans go back for the next sweep.
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
  // Then the plans collected by link.
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

export async function runTestClock(db: Db, processor: ProcessorSource, now: Date): Promise<SweepSummary> {
  const summary = await runRenewalSweep(db, processor, { now });
  return { ...summary, idempotencyKeysDeleted: await deleteExpiredIdempotencyKeys(db) };
}
