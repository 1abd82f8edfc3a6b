import type { z } from 'zod';
import type { Db } from '@/db/client';
import { getPendingTransaction, getPlanByToken } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { type BillingInterval, intervalOf } from '@/lib/billing/interval';
import { CHECKOUT_TOKEN_PATTERN } from '@/lib/widget/protocol';
import type { checkoutSessionSchema } from './schemas';

// docs/api.md#checkout-session / 4.4 and docs/api.md#checkout-session: what the checkout shows, found by the token alone.


export type CheckoutSessionView = z.infer<typeof checkoutSessionSchema>;

/** What the hosted page shows: the session, and how often the plan is charged (not in the API's session). */
export type CheckoutPageSession = CheckoutSessionView & { interval: BillingInterval | null };

const notFound = () => new ApiError('not_found', 'No checkout session with this token');

/** The plan behind a token, whatever its expiry, or 404 for an unknown or malformed token. */
export async function findPlanByToken(db: Db, token: string) {
  if (!CHECKOUT_TOKEN_PATTERN.test(token)) throw notFound();
  const found = await getPlanByToken(db, token);
  if (!found) throw notFound();
  return found;
}

type FoundPlan = Awaited<ReturnType<typeof findPlanByToken>>;

/**
 * A link that was paid, paused or cancelled still resolves after its expiry, so the page can say
 * what happened; only an unpaid link expires.
 */
function linkExpired({ plan }: FoundPlan, now: Date): boolean {
  return plan.status === 'PENDING_ACTIVATION' && plan.tokenExpiresAt <= now;
}

/** The plan behind a token, or 404 (unknown or malformed) / 400 session_expired (an unpaid link past its expiry). */
export async function findCheckoutPlan(db: Db, token: string, now: Date = new Date()) {
  const found = await findPlanByToken(db, token);
  if (linkExpired(found, now)) {
    throw new ApiError('session_expired', 'This checkout link has expired; ask the merchant for a new one');
  }
  return found;
}

export async function loadCheckoutSession(db: Db, token: string, now: Date = new Date()): Promise<CheckoutSessionView> {
  return sessionView(await findCheckoutPlan(db, token, now));
}

/**
 * What the hosted page needs (404 for an unknown token): the session, whether the link expired
 * (the page then shows only that), the plan id the embedded page reports to the widget, and the
 * first payment still PENDING, if any: a reopened page follows it instead of offering a form that
 * would answer 409 (docs/settlement.md).
 */
export async function loadCheckoutPage(db: Db, token: string, now: Date = new Date()) {
  const found = await findPlanByToken(db, token);
  const pending = found.plan.status === 'PENDING_ACTIVATION' ? await getPendingTransaction(db, found.plan.id) : undefined;
  return {
    session: { ...sessionView(found), interval: intervalOf(found.plan) } satisfies CheckoutPageSession,
    expired: linkExpired(found, now),
    subscriptionPlanId: found.plan.id,
    pendingPaymentId: pending?.kind === 'INITIAL' ? pending.id : null,
  };
}

function sessionView({ plan, merchantName, allowedDomains }: FoundPlan): CheckoutSessionView {
  return {
    customer: { phone: plan.customerPhone, firstName: plan.customerFirstName },
    planName: plan.description,
    amount: plan.amount,
    currency: 'COP',
    merchantName,
    merchantId: plan.merchantId,
    modality: plan.modality === 'RECURRING' ? 'SUBSCRIPTION' : 'SINGLE',
    expiresAt: plan.tokenExpiresAt.getTime(),
    allowedDomains,
    status: plan.status,
  };
}
