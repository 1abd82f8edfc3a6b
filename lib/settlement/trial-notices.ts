import type { Db } from '@/db/client';
import { findTrialNoticesDue, lockPlan, transitionPlan } from '@/db/queries/plans';
import { noteTrialEnding } from '@/lib/notices';
import { inTransaction } from '@/lib/unit-of-work';

// The notice 3 days before a trial ends, in the unit of work that clears it, so it goes once.

/** False when another worker sent it or the plan moved on. */
export async function sendTrialNotice(db: Db, planId: string, now: Date): Promise<boolean> {
  return inTransaction(db, async (tx, outbox) => {
    const plan = await lockPlan(tx, planId);
    if (plan.status !== 'TRIALING' || !plan.trialNoticeAt || plan.trialNoticeAt > now || !plan.trialEndsAt) return false;
    const cleared = (await transitionPlan(tx, plan.id, ['TRIALING'], { trialNoticeAt: null }))!;
    // After the end (a stopped clock) nothing: the charge follows at once.
    if (plan.trialEndsAt <= now) return false;
    await noteTrialEnding(tx, outbox, cleared, now);
    return true;
  });
}

/** Of `merchantId` only for its test clock; returns how many were sent. */
export async function runTrialNotices(db: Db, now: Date, { merchantId, pageSize = 500 }: { merchantId?: string; pageSize?: number } = {}): Promise<number> {
  let sent = 0;
  for (;;) {
    const page = await findTrialNoticesDue(db, { now, limit: pageSize, merchantId });
    for (const { id } of page) if (await sendTrialNotice(db, id, now)) sent++;
    if (page.length < pageSize) return sent;
  }
}
