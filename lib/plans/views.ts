import type { PlanRow } from '@/db/queries/plans';
import type { TransactionRow } from '@/db/queries/transactions';
import { type BillingInterval, intervalOf, isMonthly } from '@/lib/calendar/interval';
import { nextChargeDateOf } from '@/lib/calendar/schedule';
import type { PlanRecordView, PlanStatusView } from './schemas';
import { ivaOfColumn } from '@/lib/invoices/settings';

// Extension fields (docs/billing.md) appear only where a caller used the extension: a plan charged
// every month replies exactly as API version 2026-11-20's do. Each reply decides it in one place below
// (`pricingFields`), so an API version can decide it instead.

type Priced = Pick<PlanRow, 'intervalUnit' | 'intervalCount'>;
type Trialed = Pick<PlanRow, 'trialDays' | 'trialEndsAt'>;

/** A plan's free trial (docs/billing.md#trials), or nothing for a plan created without one. */
export function trialFields(plan: Trialed): { trial: { days: number; endsAt: number | null } } | null {
  return plan.trialDays ? { trial: { days: plan.trialDays, endsAt: plan.trialEndsAt?.getTime() ?? null } } : null;
}

/** A cancellation at the end of the period (docs/billing.md#cancel-at-the-end-of-the-period), while one is scheduled. */
export function cancelAtFields(plan: Pick<PlanRow, 'cancelAt' | 'status'>): { cancelAt: number } | null {
  const open = plan.status === 'ACTIVE' || plan.status === 'TRIALING' || plan.status === 'PAUSED';
  return plan.cancelAt && open ? { cancelAt: plan.cancelAt.getTime() } : null;
}

/** Seats (docs/billing.md#quantity), shown when not 1: `amount` is then the unit price. */
export function quantityFields(plan: Pick<PlanRow, 'quantity'>): { quantity: number } | null {
  return plan.quantity !== 1 ? { quantity: plan.quantity } : null;
}

/** The pricing extension fields of a plan, or null when the plan uses none of them (2026-11-20's shape). */
function pricingFields(plan: Priced): { interval: BillingInterval } | null {
  const interval = intervalOf(plan);
  return interval && !isMonthly(interval) ? { interval } : null;
}

/** docs/api.md#plan-status at top level (docs/api.md#plan-status); built field by field so no column leaks by accident. */
export function toPlanStatus(
  plan: Pick<PlanRow, 'id' | 'externalReference' | 'status' | 'amount' | 'description' | 'nextChargeDate' | 'cancelAt' | 'quantity'> & Priced & Trialed,
  last: Pick<TransactionRow, 'id' | 'status' | 'amount' | 'chargeDate' | 'gatewayTransactionId' | 'refundDueAt' | 'refundedAt'> | null,
): PlanStatusView {
  return {
    subscriptionPlanId: plan.id,
    externalReference: plan.externalReference,
    plan: {
      status: plan.status,
      amount: plan.amount,
      currency: 'COP',
      description: plan.description,
      nextChargeDate: nextChargeDateOf(plan),
      ...pricingFields(plan),
      ...trialFields(plan),
      ...cancelAtFields(plan),
      ...quantityFields(plan),
    },
    ...(last
      ? {
          lastTransaction: {
            subscriptionTransactionId: last.id,
            status: last.status,
            amount: last.amount,
            chargeDate: last.chargeDate.getTime(),
            gatewayTransactionId: last.gatewayTransactionId,
            ...(last.refundDueAt && !last.refundedAt ? { refundDue: true as const } : {}),
          },
        }
      : {}),
  };
}

/** docs/api.md#plan-status: the plan record. */
/** `renewalUrl`: the plan's open renewal link, if any (docs/billing.md#renewal-links). */
export function toPlanRecord(plan: PlanRow, { renewalUrl }: { renewalUrl?: string | null } = {}): PlanRecordView {
  return {
    id: plan.id,
    merchantId: plan.merchantId,
    userId: plan.customerId,
    externalReference: plan.externalReference,
    description: plan.description,
    amount: plan.amount,
    currency: 'COP',
    modality: plan.modality,
    interval: plan.modality === 'SINGLE' ? null : (pricingFields(plan)?.interval ?? 'MONTHLY'),
    status: plan.status,
    nextChargeDate: nextChargeDateOf(plan),
    ...trialFields(plan),
    ...cancelAtFields(plan),
    ...quantityFields(plan),
    ...(plan.setupFee !== null ? { setupFee: plan.setupFee } : {}),
    ...(plan.usageUnitAmount !== null ? { usage: { unitAmount: plan.usageUnitAmount, includedUnits: plan.usageIncludedUnits ?? 0 } } : {}),
    ...(plan.minimumPeriods !== null ? { minimumPeriods: plan.minimumPeriods } : {}),
    ...(plan.minimumPeriods !== null && plan.termEndsAt ? { minimumTermEndsAt: plan.termEndsAt.getTime() } : {}),
    ...(plan.status === 'PAUSED' && plan.resumesAt ? { resumesAt: plan.resumesAt.toISOString() } : {}),
    ...(plan.billingDay !== null ? { billingDay: plan.billingDay } : {}),
    ...(plan.iva !== null ? { iva: ivaOfColumn(plan.iva) } : {}),
    ...(renewalUrl ? { renewalUrl } : {}),
    createdAt: plan.createdAt.toISOString(),
    updatedAt: plan.updatedAt.toISOString(),
    customer: {
      phone: plan.customerPhone,
      email: plan.customerEmail,
      firstName: plan.customerFirstName,
      lastName: plan.customerLastName,
      idType: plan.customerIdType,
      idNumber: plan.customerIdNumber,
    },
  };
}
