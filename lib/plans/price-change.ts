import type { Db } from '@/db/client';
import { getPlanForMerchant, lockPlan, type PlanRow, transitionPlan } from '@/db/queries/plans';
import { repriceOpenRenewalLink } from '@/db/queries/renewal-links';
import { ApiError } from '@/lib/api/errors';
import { merchantNow } from '@/lib/clock';
import { addInterval, intervalOf, MONTHLY, proratedDifference } from '@/lib/calendar/interval';
import { notePriceChange } from '@/lib/notices';
import { type ProcessorSource, resolveProcessor } from '@/lib/processors';
import { savedMethodType } from '@/lib/processors/processor';
import { chargeSavedMethod, openCharge } from '@/lib/settlement/attempt';
import { inTransaction } from '@/lib/unit-of-work';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { MAX_AMOUNT, MIN_AMOUNT, type PriceChangeBody } from './schemas';
import { listAmountOf, periodDueOf } from '@/lib/calendar/schedule';

// Price changes (docs/billing.md#price-changes): `next_charge` schedules the new price for the next
// period; `now` charges the difference for the rest of the period (kind PRORATION), applied when
// that charge is approved.

type Scope = { merchantId: string; planId: string };

const refuse = (path: string, message: string) => new ApiError('invalid_request', `${path}: ${message}`, { details: [{ path, message }] });

/** The unit price and seats a change asks for: what it names, the plan's for the rest (docs/billing.md#quantity). */
function targetOf(plan: PlanRow, body: PriceChangeBody): { amount: number; quantity: number } {
  return { amount: body.amount ?? plan.amount, quantity: body.quantity ?? plan.quantity };
}

/** What a change may not do to this plan: a 400 naming the field. */
function refusal(plan: PlanRow, body: PriceChangeBody): ApiError | null {
  if (plan.status === 'CANCELLED' || plan.status === 'COMPLETED') return refuse('id', `the plan is ${plan.status}; only an open plan's price can change`);
  const target = targetOf(plan, body);
  if (target.amount * target.quantity > MAX_AMOUNT) return refuse(body.quantity !== undefined ? 'quantity' : 'amount', `makes each charge more than ${MAX_AMOUNT} cents`);
  if (body.effective !== 'now') return null;
  if (plan.status !== 'ACTIVE') return refuse('effective', `now needs an ACTIVE plan (this one is ${plan.status}); use next_charge`);
  if (target.amount * target.quantity < listAmountOf(plan)) return refuse('effective', 'now only raises a price (there are no credits); lower it with next_charge');
  if (plan.renewalFailures > 0) return refuse('effective', 'now is refused while a renewal is being retried; use next_charge');
  if (!plan.paymentMethodToken || plan.renewalCollection !== 'AUTOMATIC') return refuse('effective', 'now needs a saved payment method to charge; use next_charge');
  return null;
}

/** `next_charge`, or a `now` whose difference is under the processor's minimum: recorded at once. */
async function applyWithoutCharge(db: Db, scope: Scope, body: PriceChangeBody, now: Date): Promise<PlanRow | { charge: number; plan: PlanRow }> {
  return inTransaction(db, async (tx, outbox) => {
    const plan = await lockPlan(tx, (await findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope))).id);
    const refused = refusal(plan, body);
    if (refused) throw refused;
    const description = body.description ?? null;
    const target = targetOf(plan, body);
    const interval = intervalOf(plan) ?? MONTHLY;
    let values: Parameters<typeof transitionPlan>[3];
    let effectiveAt: Date | null = null;
    if (body.effective === 'now') {
      const charge = proratedDifference(target.amount * target.quantity - listAmountOf(plan), { now, nextDue: plan.nextChargeDate!, interval, anchorDay: plan.billingAnchorDay });
      // Recorded for the settlement of its charge to apply (lib/settlement/settle.ts).
      const scheduled = { scheduledAmount: target.amount, scheduledQuantity: target.quantity, scheduledDescription: description, scheduledFrom: now };
      if (charge >= MIN_AMOUNT) return { charge, plan: (await transitionPlan(tx, plan.id, ['ACTIVE'], scheduled))! };
      values = { ...target, description: description ?? plan.description, scheduledAmount: null, scheduledQuantity: null, scheduledDescription: null, scheduledFrom: null };
    } else if (plan.status === 'PENDING_ACTIVATION') {
      // Never charged: the link charges the new price.
      values = { ...target, description: description ?? plan.description, scheduledAmount: null, scheduledQuantity: null, scheduledDescription: null, scheduledFrom: null };
    } else {
      // The next period not yet due: the one after a period still being retried; for a paused plan, any after today.
      // A trial's first charge is its end: the change is charged from then.
      effectiveAt = plan.status === 'ACTIVE' || plan.status === 'TRIALING' ? (plan.renewalFailures > 0 ? addInterval(periodDueOf(plan), interval, plan.billingAnchorDay) : plan.nextChargeDate) : null;
      const from = effectiveAt ?? now;
      values = { scheduledAmount: target.amount, scheduledQuantity: target.quantity, scheduledDescription: description, scheduledFrom: from };
      // A renewal link already sent for that period charges the new price too.
      await repriceOpenRenewalLink(tx, { planId: plan.id, from, amount: target.amount * target.quantity });
    }
    const after = (await transitionPlan(tx, plan.id, [plan.status], values))!;
    await notePriceChange(tx, outbox, { before: plan, after, effective: body.effective, effectiveAt, now });
    return after;
  });
}

/** Forgets a `now` change whose charge could not start. */
async function dropScheduled(db: Db, planId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    await lockPlan(tx, planId);
    await transitionPlan(tx, planId, ['ACTIVE'], { scheduledAmount: null, scheduledQuantity: null, scheduledDescription: null, scheduledFrom: null });
  });
}

/** PATCH /merchants/subscription-plans/{id}: the plan after the change; a refused proration is a 409. */
export async function changePlanPrice(db: Db, processors: ProcessorSource, scope: Scope, body: PriceChangeBody, at?: Date): Promise<PlanRow> {
  // A merchant's test clock dates the change and prorates by its time (docs/billing.md#test-clocks).
  const now = at ?? (await merchantNow(db, scope.merchantId));
  const recorded = await applyWithoutCharge(db, scope, body, now);
  if (!('charge' in recorded)) return recorded;
  const processor = await resolveProcessor(processors, scope.merchantId).catch(() => null);
  if (!processor) {
    await dropScheduled(db, scope.planId);
    throw new ApiError('conflict', 'The prorated difference cannot be charged now (no payment processor answers); the price did not change');
  }
  const opened = await openCharge(db, {
    plan: scope.planId,
    now,
    prepare: async (_tx, plan) =>
      plan.status === 'ACTIVE' && plan.scheduledAmount === (body.amount ?? plan.amount) && plan.scheduledQuantity === (body.quantity ?? plan.quantity) && plan.paymentMethodToken
        ? { kind: 'PRORATION', amount: recorded.charge, periodStart: now, paymentMethodToken: plan.paymentMethodToken, paymentMethodType: savedMethodType(plan.paymentMethodToken) }
        : 'skip',
  });
  if (opened.status !== 'opened') {
    await dropScheduled(db, scope.planId);
    throw new ApiError('conflict', 'Another charge of this plan is in progress; the price did not change. Try again once it settles');
  }
  const { transaction, plan } = await chargeSavedMethod(db, processor, opened, now);
  if (transaction.status === 'DECLINED' || transaction.status === 'ERROR') {
    throw new ApiError('conflict', `The prorated charge ${transaction.id} was ${transaction.status} (${transaction.failureCode ?? 'no reason given'}); the price did not change`);
  }
  return plan;
}
