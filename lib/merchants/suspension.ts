import type { Db } from '@/db/client';
import { getMerchantStatus } from '@/db/queries/merchants';
import { lockMerchantPlansDueBy, transitionPlan } from '@/db/queries/plans';
import { intervalOf, MONTHLY, nextDueAfter } from '@/lib/calendar/interval';
import { periodDueOf } from '@/lib/calendar/schedule';

// A suspended merchant (status INACTIVE, set by the operator) takes no payments
// (docs/operations.md#suspending-a-merchant): its API keys are refused, its links and renewal
// links show `unavailable`, every charge is skipped where it opens (lib/settlement/attempt.ts), and
// its portal is read-only. `merchantSuspended` is the one check every portal action and page
// asks; `resumeMerchantRenewals` is what reactivation does to the plans the suspension held back.

/** True while the merchant is suspended (or unknown): nothing it does may change anything. */
export async function merchantSuspended(db: Db, merchantId: string): Promise<boolean> {
  return (await getMerchantStatus(db, merchantId)) !== 'ACTIVE';
}

/**
 * Reactivation, inside the transaction that sets ACTIVE again: each plan whose charge fell due
 * while the merchant was suspended moves to its first due day after `now` (the anchor day, or the
 * weekday of a weekly plan), as a resumed plan does: the suspended periods are never charged, and
 * renewals go on from the next sweep on. Returns how many plans moved.
 */
export async function resumeMerchantRenewals(tx: Db, merchantId: string, now: Date): Promise<number> {
  const due = await lockMerchantPlansDueBy(tx, { merchantId, now });
  for (const plan of due) {
    const nextChargeDate = nextDueAfter(now, periodDueOf(plan), intervalOf(plan) ?? MONTHLY, plan.billingAnchorDay);
    await transitionPlan(tx, plan.id, [plan.status], { nextChargeDate, renewalFailures: 0 });
  }
  return due.length;
}
