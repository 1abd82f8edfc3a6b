import type { Db } from '@/db/client';
import { getMerchantStatus } from '@/db/queries/merchants';
import { lockMerchantPlansDueBy, transitionPlan } from '@/db/queries/plans';
import { intervalOf, MONTHLY, nextDueAfter } from '@/lib/calendar/interval';
import { periodDueOf } from '@/lib/calendar/schedule';

// A suspended merchant takes no payments (docs/operations.md#suspending-a-merchant). Every portal
// action and page asks `merchantSuspended`.

/** True while the merchant is suspended (or unknown): nothing it does may change anything. */
export async function merchantSuspended(db: Db, merchantId: string): Promise<boolean> {
  return (await getMerchantStatus(db, merchantId)) !== 'ACTIVE';
}

/** Reactivation: plans that fell due while suspended move to their next due day, as a resumed plan does. */
export async function resumeMerchantRenewals(tx: Db, merchantId: string, now: Date): Promise<number> {
  const due = await lockMerchantPlansDueBy(tx, { merchantId, now });
  for (const plan of due) {
    const nextChargeDate = nextDueAfter(now, periodDueOf(plan), intervalOf(plan) ?? MONTHLY, plan.billingAnchorDay);
    await transitionPlan(tx, plan.id, [plan.status], { nextChargeDate, renewalFailures: 0 });
  }
  return due.length;
}
