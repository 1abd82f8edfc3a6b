import type { z } from 'zod';
import { firstPeriodOf, listAmountOf } from '@/lib/calendar/schedule';
import { WOMPI_MIN_AMOUNT } from '@/lib/processors/wompi/amounts';
import type { Db } from '@/db/client';
import { getCouponForMerchant } from '@/db/queries/coupons';
import { getRenewalLinkApproval, getRenewalLinkByToken, type RenewalLinkRow } from '@/db/queries/renewal-links';
import { getPendingTransaction, getPlanByToken } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { type BillingInterval, intervalOf } from '@/lib/calendar/interval';
import { chargesOf } from '@/lib/coupons/discount';
import { invoicesOn, planBuyerOf } from '@/lib/invoices/buyer';
import { CHECKOUT_TOKEN_PATTERN } from '@/lib/widget/protocol';
import type { checkoutSessionSchema } from './schemas';

// docs/api.md#checkout-session: what the checkout shows, found by the token alone. A token is a
// plan's own (its first payment) or a renewal link's (one period of an ACTIVE plan,
// docs/billing.md#renewal-links); both are paid on /pay/<token>.

export type CheckoutSessionView = z.infer<typeof checkoutSessionSchema>;

/** What the hosted page shows: the session, and how often the plan is charged (not in the API's session). */
/** `firstPeriod`: a billing day's prorated first period (docs/billing.md#billing-day), when its end and the full price follow. */
/** `setupFee`: the part of `amount` charged once (docs/billing.md#setup-fee), when today's payment carries one. */
export type CheckoutPageSession = CheckoutSessionView & { interval: BillingInterval | null; firstPeriod?: { endsAt: number; fullAmount: number }; setupFee?: number };

const notFound = () => new ApiError('not_found', 'No checkout session with this token');

/** The plan behind a token whatever its expiry (with `link` for a renewal link's), or 404. */
export async function findPlanByToken(db: Db, token: string) {
  if (!CHECKOUT_TOKEN_PATTERN.test(token)) throw notFound();
  const found = await getPlanByToken(db, token);
  if (found) return { ...found, link: null as RenewalLinkRow | null };
  const renewal = await getRenewalLinkByToken(db, token);
  if (!renewal) throw notFound();
  return renewal;
}

type FoundPlan = Awaited<ReturnType<typeof findPlanByToken>>;

/** Only an unpaid link expires (a renewal link at the end of its grace), so the page can say what happened. */
function linkExpired({ plan, link }: FoundPlan, now: Date): boolean {
  if (link) return link.status === 'EXPIRED' || (link.status === 'OPEN' && link.expiresAt <= now);
  return plan.status === 'PENDING_ACTIVATION' && plan.tokenExpiresAt <= now;
}

/** The plan behind a token, or 404 (unknown or malformed) / 400 session_expired (an unpaid link past its expiry). */
export async function findCheckoutPlan(db: Db, token: string, now: Date = new Date()) {
  const found = await findPlanByToken(db, token);
  if (linkExpired(found, now)) {
    throw new ApiError(
      'session_expired',
      found.link
        ? 'This renewal link has expired: the subscription was cancelled for non-payment'
        : 'This checkout link has expired; ask the merchant for a new one',
    );
  }
  return found;
}

export async function loadCheckoutSession(db: Db, token: string, now: Date = new Date()): Promise<CheckoutSessionView> {
  const found = await findCheckoutPlan(db, token, now);
  return { ...sessionView(found, now), ...(await discountView(db, found, now)) };
}

/** The coupon's part of the session (docs/billing.md#coupons): nothing, and no query, without one. */
async function discountView(db: Db, { plan, link }: FoundPlan, now: Date): Promise<Pick<CheckoutSessionView, 'discount' | 'promotionCodes'>> {
  const promotionCodes = !link && plan.allowPromotionCodes && plan.status === 'PENDING_ACTIVATION' ? { promotionCodes: true as const } : {};
  if (!plan.couponId) return promotionCodes;
  const listAmount = link ? link.amount : firstListAmount(plan, now);
  const charges = chargesOf(plan, listAmount);
  if (charges.discount === 0) return promotionCodes;
  const coupon = await getCouponForMerchant(db, { merchantId: plan.merchantId, couponId: plan.couponId });
  return {
    discount: {
      code: coupon?.code ?? null,
      listAmount,
      discount: charges.discount,
      amountDue: charges.now + (link ? 0 : firstSetupFee(plan)),
      amountLater: charges.later,
      discountedCharges: charges.discountedCharges,
    },
    ...promotionCodes,
  };
}

/**
 * What the hosted page needs, or 404: the session, whether it expired, and this token's PENDING
 * payment, which a reopened page follows rather than offering a form (docs/settlement.md).
 */
export async function loadCheckoutPage(db: Db, token: string, now: Date = new Date()) {
  const found = await findPlanByToken(db, token);
  const payable = found.link ? found.link.status === 'OPEN' : found.plan.status === 'PENDING_ACTIVATION';
  const pending = payable ? await getPendingTransaction(db, found.plan.id) : undefined;
  const ours = found.link ? pending?.renewalLinkId === found.link.id : pending?.kind === 'INITIAL';
  const approval = found.link && found.link.status !== 'OPEN' && found.link.status !== 'PAID' ? await getRenewalLinkApproval(db, found.link.id) : undefined;
  return {
    late: approval ? (approval.status as 'APPROVED' | 'VOIDED') : null,
    session: { ...sessionView(found, now), ...(await discountView(db, found, now)), interval: intervalOf(found.plan), ...firstPeriodView(found, now), ...setupFeeView(found) } satisfies CheckoutPageSession,
    expired: linkExpired(found, now),
    subscriptionPlanId: found.plan.id,
    pendingPaymentId: pending && ours ? pending.id : null,
    cancelReason: found.plan.cancelReason,
    /** "Factura a nombre de…" (docs/einvoicing.md#the-buyer): offered before the plan's first payment when its merchant invoices. */
    buyer: !found.link && found.plan.status === 'PENDING_ACTIVATION' && (await invoicesOn(db, found.plan.merchantId)) ? { current: planBuyerOf(found.plan) } : null,
    /** False while the merchant is suspended: the page shows `unavailable` (docs/operations.md#suspending-a-merchant). */
    merchantActive: found.merchantStatus === 'ACTIVE',
  };
}

/**
 * What the plan's first payment takes for its seats at `at`: with a billing day
 * (docs/billing.md#billing-day) the share of a period left until it, in whole pesos when the
 * price is, and never below Wompi's card minimum (nor above the full price).
 */
export function firstListAmount(plan: FoundPlan['plan'], at: Date): number {
  const full = listAmountOf(plan);
  const first = firstPeriodOf(plan, at);
  if (!first) return full;
  const share = full % 100 === 0 ? Math.round((full * first.share) / 100) * 100 : Math.round(full * first.share);
  return Math.max(share, Math.min(full, WOMPI_MIN_AMOUNT));
}

function firstPeriodView({ plan, link }: FoundPlan, now: Date): Pick<CheckoutPageSession, 'firstPeriod'> {
  const first = !link && plan.status === 'PENDING_ACTIVATION' ? firstPeriodOf(plan, now) : null;
  return first ? { firstPeriod: { endsAt: first.end.getTime(), fullAmount: listAmountOf(plan) } } : {};
}

/** The setup fee the plan's own checkout charges with its first payment (a trial's start charges it too). */
function firstSetupFee(plan: FoundPlan['plan']): number {
  return plan.status === 'PENDING_ACTIVATION' ? (plan.setupFee ?? 0) : 0;
}

/** A subscription's fee, apart from what each period costs; a single payment's one charge is all of it. */
function setupFeeView({ plan, link }: FoundPlan): Pick<CheckoutPageSession, 'setupFee'> {
  const fee = link || plan.modality !== 'RECURRING' ? 0 : firstSetupFee(plan);
  return fee > 0 ? { setupFee: fee } : {};
}

function sessionView({ plan, link, merchantName, allowedDomains }: FoundPlan, now: Date): CheckoutSessionView {
  return {
    customer: { phone: plan.customerPhone, firstName: plan.customerFirstName },
    planName: plan.description,
    amount: link ? link.amount : firstListAmount(plan, now) + firstSetupFee(plan),
    currency: 'COP',
    merchantName,
    merchantId: plan.merchantId,
    modality: plan.modality === 'RECURRING' ? 'SUBSCRIPTION' : 'SINGLE',
    expiresAt: (link ? link.expiresAt : plan.tokenExpiresAt).getTime(),
    allowedDomains,
    // Nothing left to pay on a trial that started (docs/billing.md#trials): `trial.endsAt` says it is one.
    status: plan.status === 'TRIALING' ? 'ACTIVE' : plan.status,
    ...(link ? { renewal: { period: link.period.getTime(), status: link.status } } : {}),
    ...(!link && plan.trialDays ? { trial: { days: plan.trialDays, endsAt: plan.trialEndsAt?.getTime() ?? null } } : {}),
  };
}
