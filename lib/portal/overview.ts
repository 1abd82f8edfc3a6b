import type { Db } from '@/db/client';
import { dailyFigures, failedRenewals, planFigures, upcomingRenewals } from '@/db/queries/overview';

export { compactOverviewPieces } from '@/db/queries/overview';

// The Overview page's figures (docs/portal.md#overview), read together.

export const OVERVIEW_RANGES = [30, 90] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];
const LIST_SIZE = 10;

export async function getOverview(db: Db, merchantId: string, { now = new Date(), days = 30 }: { now?: Date; days?: OverviewRange } = {}) {
  const [plans, daily, failing, upcoming] = await Promise.all([
    planFigures(db, merchantId, now),
    dailyFigures(db, merchantId, now, days),
    failedRenewals(db, merchantId, LIST_SIZE),
    upcomingRenewals(db, merchantId, now, LIST_SIZE),
  ]);
  const approved = daily.reduce((n, d) => n + d.approved, 0);
  const failed = daily.reduce((n, d) => n + d.failed, 0);
  return {
    ...plans,
    /** Cancelled this month over the plans that were ACTIVE or cancelled this month; null with neither. */
    churnRate: plans.activePlans + plans.cancelledThisMonth === 0 ? null : plans.cancelledThisMonth / (plans.activePlans + plans.cancelledThisMonth),
    revenue: daily.reduce((n, d) => n + d.revenue, 0),
    /** Approved over approved + declined + error in the range; null with no outcome yet. */
    approvalRate: approved + failed === 0 ? null : approved / (approved + failed),
    daily,
    failing,
    upcoming,
  };
}

export type Overview = Awaited<ReturnType<typeof getOverview>>;
