import type { Db } from '@/db/client';
import { listPlanInvoices } from '@/db/queries/invoices';
import { listPlanCharges } from '@/db/queries/transactions';
import { type CheckoutProcessorConfig, checkoutProcessorConfig } from '@/lib/checkout/processor-config';
import { intervalOf, isMonthly } from '@/lib/calendar/interval';
import type { Lang } from '@/lib/i18n/locale';
import { amountForPeriod, nextChargeDateOf, termEndOf } from '@/lib/calendar/schedule';
import { chargesOf } from '@/lib/coupons/discount';
import type { PlanRow } from '@/db/queries/plans';
import { findManagedPlan, recordCustomerLang, recordManageLinkUse } from '@/lib/auth/manage-links';
import { isProductionDeployment } from '@/lib/processors';
import { cancelAtFields } from '@/lib/plans/views';
import { chargedUntilCancelled } from '@/lib/plans/cancel-at';
import { invoicesOn, planBuyerOf } from '@/lib/invoices/buyer';

// What the manage page (docs/customers.md#the-manage-page) shows and offers, loaded in one place;
// opening it counts the link's use and keeps a language the customer picked.

export type ManagePage = NonNullable<Awaited<ReturnType<typeof loadManagePage>>>;

/** A TRIALING plan's trial as the page tells it, with the first charge at its end; else null. */
export function trialOf(plan: PlanRow): { days: number; endsAt: number; firstCharge: { amount: number; discount: number } } | null {
  if (plan.status !== 'TRIALING' || !plan.trialEndsAt || !plan.trialDays) return null;
  // As the trial's e-mails say it (lib/notices.ts): the period's price, the coupon taken off.
  const { now, discount } = chargesOf(plan, amountForPeriod(plan, plan.trialEndsAt));
  return { days: plan.trialDays, endsAt: plan.trialEndsAt.getTime(), firstCharge: { amount: now, discount } };
}

/** The plan behind a manage token and what may be done, or null for an unknown or expired token. */
export async function loadManagePage(db: Db, token: string, { chosenLang, confirmCancel }: { chosenLang: Lang | null; confirmCancel: boolean }) {
  const found = await findManagedPlan(db, token);
  if (!found) return null;
  const { plan, merchantName, processorType } = found;
  await recordManageLinkUse(db, token);
  if (chosenLang) await recordCustomerLang(db, plan, chosenLang);
  const charges = await listPlanCharges(db, plan.id);
  // The plan's electronic invoices DIAN validated (docs/einvoicing.md#where-it-shows); none without e-invoicing.
  const invoices = (await listPlanInvoices(db, plan.id))
    .filter((i) => i.status === 'ISSUED')
    .map((i) => ({ id: i.id, kind: i.kind, number: i.number!, qrUrl: i.qrUrl!, total: i.total, issuedAt: i.issuedAt! }));
  const interval = intervalOf(plan);
  // A free trial's saved method may be replaced and the trial cancelled (nothing is charged), as
  // lib/customers/self-service.ts allows.
  const changeable = plan.modality === 'RECURRING' && (plan.status === 'TRIALING' || plan.status === 'ACTIVE' || plan.status === 'PAUSED');
  const cancellable = plan.status === 'PENDING_ACTIVATION' || plan.status === 'TRIALING' || plan.status === 'ACTIVE' || plan.status === 'PAUSED';
  // Who later invoices are made out to (docs/einvoicing.md#the-buyer): changeable while the plan can still be charged.
  const buyer = cancellable && (await invoicesOn(db, plan.merchantId)) ? { current: planBuyerOf(plan) } : null;
  const endsAt = cancelAtFields(plan)?.cancelAt ?? null;
  // In a minimum term (docs/billing.md#minimum-term) a cancel takes effect at its end, and nothing sooner is offered.
  const termEnd = cancellable ? (termEndOf(plan, new Date())?.getTime() ?? null) : null;
  // Cancelling at the end of the period (docs/billing.md#cancel-at-the-end-of-the-period) is offered first, while a period runs and is paid.
  const periodEnd =
    endsAt !== null
      ? null
      : (termEnd ??
        ((plan.status === 'ACTIVE' || plan.status === 'TRIALING') && plan.renewalFailures === 0 && plan.nextChargeDate && plan.nextChargeDate > new Date()
          ? plan.nextChargeDate.getTime()
          : null));
  // With Wompi the browser tokenizes the new method with the merchant's public key (docs/customers.md).
  const wompi: CheckoutProcessorConfig | null = changeable && processorType === 'wompi' ? await checkoutProcessorConfig(db, plan.merchantId, { pse: false }) : null;
  return {
    plan,
    merchantName,
    processorType,
    charges,
    invoices,
    nextCharge: nextChargeDateOf(plan),
    trial: trialOf(plan),
    interval,
    // A SINGLE plan (no interval) is charged once: its amount has no period.
    monthly: interval !== null && isMonthly(interval),
    changeable,
    cancellable,
    /** The "Factura a nombre de…" form and what it shows saved (null: not offered). */
    buyer,
    /** When a scheduled cancellation takes effect (null: none is scheduled); until then the customer may keep the plan. */
    endsAt,
    /** When the plan would end if cancelled at the end of its period (null: that is not offered now). */
    periodEnd,
    /** When a minimum term still running ends: a cancel takes effect then, with its periods charged until then. */
    termEnd,
    /** A scheduled cancellation that waits for a minimum term: periods are still charged until then. */
    chargedUntilEnd: endsAt !== null && chargedUntilCancelled(plan),
    /** The customer asked to cancel (`?cancel=confirm`) and may: the page asks them to confirm. */
    confirming: confirmCancel && cancellable && endsAt === null && termEnd === null,
    /** The Wompi form's settings when the method may be replaced through Wompi (null: the sandbox's plain forms, or nothing to replace). */
    wompi,
    /** The sandbox's card and Nequi forms: never in production (docs/processors.md#deployments). */
    sandboxForms: changeable && processorType !== 'wompi' && !isProductionDeployment(),
  };
}
