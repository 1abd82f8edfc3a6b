// Metered usage reports (docs/billing.md#metered-usage): POST …/usage records one per key, and
// the renewal of the period they fall in bills them in arrears (lib/billing/renewals.ts).
import type { Db } from '@/db/client';
import { getPlanForMerchant, type PlanRow } from '@/db/queries/plans';
import { insertUsageReport, type UsageReportRow } from '@/db/queries/usage';
import { ApiError } from '@/lib/api/errors';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { createId } from '@/lib/ids';
import type { UsageReportBody, UsageReportView } from './schemas';

/** What a period's units cost: those over the included ones, at the unit price. */
export function usageCharge(plan: Pick<PlanRow, 'usageUnitAmount' | 'usageIncludedUnits'>, units: number): number {
  return Math.max(0, units - (plan.usageIncludedUnits ?? 0)) * (plan.usageUnitAmount ?? 0);
}

const refuse = (message: string) => new ApiError('invalid_request', `id: ${message}`, { details: [{ path: 'id', message }] });

export function toUsageReport(row: UsageReportRow): UsageReportView {
  return {
    id: row.id,
    subscriptionPlanId: row.planId,
    quantity: row.quantity,
    timestamp: row.reportedAt.toISOString(),
    idempotencyKey: row.idempotencyKey,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Records a report for the merchant's plan: a 400 for a plan not metered (a SINGLE one among
 * them), a 409 for one no longer open or a key sent before with another quantity. `created` is
 * false for a key already recorded, answered with its first report.
 */
export async function reportUsage(db: Db, scope: { merchantId: string; planId: string }, body: UsageReportBody, now: Date): Promise<{ report: UsageReportView; created: boolean }> {
  const plan = await findMerchantPlan(db, scope.planId, () => getPlanForMerchant(db, scope));
  if (plan.modality !== 'RECURRING') throw refuse('usage is reported only for RECURRING plans (this one is SINGLE)');
  if (plan.usageUnitAmount === null) throw refuse('this plan was created without plan.usage: it is not metered');
  if (plan.status === 'CANCELLED' || plan.status === 'COMPLETED' || plan.status === 'PENDING_ACTIVATION') {
    throw new ApiError('conflict', `Usage is counted only for a running plan: the plan is ${plan.status}`);
  }
  const { row, created } = await insertUsageReport(db, {
    id: createId('usg', now.getTime()),
    planId: plan.id,
    merchantId: plan.merchantId,
    idempotencyKey: body.idempotencyKey,
    quantity: body.quantity,
    reportedAt: body.timestamp ? new Date(body.timestamp) : now,
    createdAt: now,
  });
  if (!created && row.quantity !== body.quantity) {
    throw new ApiError('conflict', `idempotencyKey was used for a report of ${row.quantity} units; a report of ${body.quantity} needs its own key`);
  }
  return { report: toUsageReport(row), created };
}
