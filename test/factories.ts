// Test factories, after Polar's fixtures: each makes one thing a test needs in the database, the
// way the product makes it, with what the test does not care about defaulted.
import { and, eq, notInArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { subscriptionPlans } from '@/db/schema';
import { isTrialStart, payCheckout } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import type { PaymentInstrument } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from './checkout';
import { DAY_MS } from './clock';
import type { TestMerchant } from './merchants';

export interface PaidPlanOptions {
  /** Fields of the link's plan (linkBody's defaults otherwise). */
  plan?: Record<string, unknown>;
  /** The merchant; a fresh one by default. */
  merchant?: TestMerchant;
  /** A sandbox card number (CARDS), or any instrument; an approving card by default. */
  card?: string;
  instrument?: PaymentInstrument;
  /** When the first payment is made; a later moment keeps the link valid until then. */
  paidAt?: Date;
  processor?: Parameters<typeof payCheckout>[1];
  lang?: 'es' | 'en';
  /** Cancel every other ACTIVE plan, so that only this one is due in a sweep. */
  onlyDue?: boolean;
}

/** A link whose first payment the checkout approved (its plan ACTIVE, or COMPLETED if SINGLE), or whose trial it began. */
export async function paidPlan(db: Db, options: PaidPlanOptions = {}) {
  const link = await createTestLink(db, options.plan, options.merchant);
  const { paidAt } = options;
  if (paidAt && paidAt.getTime() > Date.now()) {
    await db.update(subscriptionPlans).set({ tokenExpiresAt: new Date(paidAt.getTime() + DAY_MS) }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
  }
  const instrument = options.instrument ?? { type: 'CARD', card: parseCard(cardForm(options.card ?? CARDS.approved))! };
  const payment = await payCheckout(db, options.processor ?? createSandboxProcessor({ pendingMs: 0 }), { token: link.token, payment: { instrument }, now: paidAt, lang: options.lang });
  if (isTrialStart(payment) !== Boolean(options.plan?.trialDays)) throw new Error('paidPlan: a free trial starts exactly when the plan has trialDays');
  if (!isTrialStart(payment) && payment.status !== 'APPROVED') throw new Error(`paidPlan: the first payment was ${payment.status}, not APPROVED`);
  if (options.onlyDue) {
    await db
      .update(subscriptionPlans)
      .set({ status: 'CANCELLED' })
      .where(and(eq(subscriptionPlans.status, 'ACTIVE'), notInArray(subscriptionPlans.id, [link.subscriptionPlanId])));
  }
  return { ...link, planId: link.subscriptionPlanId, payment };
}
