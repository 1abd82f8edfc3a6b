// Metered usage reports (docs/billing.md#metered-usage): POST …/usage records one per key,
// POST /merchants/usage-reports up to 100 at once, and the renewal of the period they fall in
// bills them in arrears (lib/billing/renewals.ts).
import type { Db } from '@/db/client';
import { getPlanForMerchant, type PlanRow } from '@/db/queries/plans';
import { findUsageReports, insertUsageReport, insertUsageReports, type UsageReportRow, usagePlansOf } from '@/db/queries/usage';
import { ApiError } from '@/lib/api/errors';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { createId } from '@/lib/ids';
import type { KeyAudit } from '@/lib/api/key-audit';
import { recordAudit } from '@/lib/audit/record';
import { inTransaction } from '@/lib/unit-of-work';
import type { UsageBatchBody, UsageReportBody, UsageReportView } from './schemas';

/** What a period's units cost: those over the included ones, at the unit price. */
export function usageCharge(plan: Pick<PlanRow, 'usageUnitAmount' | 'usageIncludedUnits'>, units: number): number {
  return Math.max(0, units - (plan.usageIncludedUnits ?? 0)) * (plan.usageUnitAmount ?? 0);
}

const refuse = (path: string, message: string) => new ApiError('invalid_request', `${path}: ${message}`, { details: [{ path, message }] });

/** Why usage cannot be counted on this plan, naming `path` (its id's field), or nothing; `of` starts a conflict's message. */
function refusalFor(plan: Pick<PlanRow, 'modality' | 'usageUnitAmount' | 'status'>, path: string, of = ''): ApiError | undefined {
  if (plan.modality !== 'RECURRING') return refuse(path, 'usage is reported only for RECURRING plans (this one is SINGLE)');
  if (plan.usageUnitAmount === null) return refuse(path, 'this plan was created without plan.usage: it is not metered');
  if (plan.status === 'CANCELLED' || plan.status === 'COMPLETED' || plan.status === 'PENDING_ACTIVATION') {
    return new ApiError('conflict', `${of}Usage is counted only for a running plan: the plan is ${plan.status}`);
  }
  return undefined;
}

const keyConflict = (recorded: number, sent: number) => `idempotencyKey was used for a report of ${recorded} units; a report of ${sent} needs its own key`;

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
  const refused = refusalFor(plan, 'id');
  if (refused) throw refused;
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
    throw new ApiError('conflict', keyConflict(row.quantity, body.quantity));
  }
  return { report: toUsageReport(row), created };
}

type BatchReport = UsageBatchBody['reports'][number];

/** The batch's plans, each checked as one report's would be, naming the first report of each refused. */
async function checkBatchPlans(db: Db, merchantId: string, reports: BatchReport[]): Promise<void> {
  const plans = new Map((await usagePlansOf(db, [...new Set(reports.map((r) => r.subscriptionPlanId))])).map((p) => [p.id, p]));
  for (const [i, report] of reports.entries()) {
    const path = `reports.${i}.subscriptionPlanId`;
    const plan = plans.get(report.subscriptionPlanId);
    if (!plan) throw new ApiError('not_found', `${path}: no subscription plan with this id`, { details: [{ path, message: 'no subscription plan with this id' }] });
    if (plan.merchantId !== merchantId) throw new ApiError('forbidden', `${path}: this subscription plan belongs to another account`);
    const refused = refusalFor(plan, path, `${path}: `);
    if (refused) throw refused;
  }
}

const keyOf = (r: { planId: string; idempotencyKey: string }) => `${r.planId}\n${r.idempotencyKey}`;
const keyOfReport = (r: BatchReport) => keyOf({ planId: r.subscriptionPlanId, idempotencyKey: r.idempotencyKey });

/**
 * Records many reports (docs/billing.md#many-reports-in-one-request): all of them or, with the
 * first refusal, none. Each is counted once by its plan and key as a single report is; a key
 * repeated inside the batch is one report. `audit` is the API key's entry, written with them.
 */
export async function reportUsageBatch(
  db: Db,
  merchantId: string,
  reports: BatchReport[],
  now: Date,
  audit?: KeyAudit,
): Promise<{ reports: UsageReportView[]; created: number }> {
  const firstOfKey = new Map<string, number>();
  for (const [i, r] of reports.entries()) {
    const key = keyOfReport(r);
    const first = firstOfKey.get(key);
    if (first === undefined) firstOfKey.set(key, i);
    else if (reports[first]!.quantity !== r.quantity) throw refuse(`reports.${i}.idempotencyKey`, `repeats the key of reports.${first} with another quantity`);
  }
  await checkBatchPlans(db, merchantId, reports);
  const rows = [...firstOfKey.values()].map((i) => {
    const r = reports[i]!;
    return {
      id: createId('usg', now.getTime()),
      planId: r.subscriptionPlanId,
      merchantId,
      idempotencyKey: r.idempotencyKey,
      quantity: r.quantity,
      reportedAt: r.timestamp ? new Date(r.timestamp) : now,
      createdAt: now,
    };
  });
  return inTransaction(db, async (tx) => {
    const inserted = await insertUsageReports(tx, rows);
    const recorded = new Map(inserted.map((row) => [keyOf(row), row]));
    const before = rows.filter((r) => !recorded.has(keyOf(r)));
    if (before.length) {
      for (const row of await findUsageReports(tx, before)) recorded.set(keyOf(row), row);
      for (const r of before) {
        const row = recorded.get(keyOf(r))!;
        if (row.quantity !== r.quantity) throw new ApiError('conflict', `reports.${firstOfKey.get(keyOf(r))}: ${keyConflict(row.quantity, r.quantity)}`);
      }
    }
    if (audit) await recordAudit(tx, audit.take());
    return { reports: reports.map((r) => toUsageReport(recorded.get(keyOfReport(r))!)), created: inserted.length };
  });
}
