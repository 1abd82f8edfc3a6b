import type { Db } from '@/db/client';
import { discountFor } from '@/lib/coupons/discount';
import { findNequiWait } from '@/db/queries/nequi-waits';
import { type PlanRow, setCustomerLang } from '@/db/queries/plans';
import { getRenewalLink, type RenewalLinkRow } from '@/db/queries/renewal-links';
import { getTransactionOfPlan, recentFailedAttempts, type TransactionRow } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { merchantNow, testClocksAvailable } from '@/lib/clock';
import { isId } from '@/lib/ids';
import type { Lang } from '@/lib/i18n/locale';
import type { Card } from '@/lib/processors/card';
import { type DeclineReason, type PaymentProcessor, type ProcessorSource, resolveProcessor } from '@/lib/processors';
import type { Consent, PaymentInstrument, PaymentMethodType } from '@/lib/processors/processor';
import { type NewCharge, openCharge } from '@/lib/settlement/attempt';
import { settleCharge } from '@/lib/settlement/settle';
import { sendPayerPayment } from '@/lib/settlement/payer-payment';
import { isLatePayment, voidLatePayment } from '@/lib/settlement/late-payments';
import { resumeNequiWait, startNequiSubscription } from '@/lib/settlement/nequi-subscription';
import { findCheckoutPlan, findPlanByToken, firstListAmount } from './session';
import { startTrial, type TrialStartView, trialRefusal } from './trial';

// The first payment of a plan through its checkout token (docs/states.md), and a renewal link's
// period (docs/billing.md#renewal-links), through the one charge attempt (lib/settlement/attempt.ts).
// Unique indexes and conditional UPDATEs decide every race.

export const MAX_FAILED_ATTEMPTS_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;

export interface PaymentView {
  subscriptionTransactionId: string;
  status: TransactionRow['status'];
  /** The processor's id (webhooks' data.transactionId); null only for a charge it never received. */
  transactionId: string | null;
  declineReason?: DeclineReason;
  /** PSE, while PENDING: the bank's page to send the payer to. */
  redirectUrl?: string;
  /** Approved after its plan was cancelled or paused: pays nothing (docs/billing.md#late-payments). */
  late?: true;
}

function toPaymentView(txn: TransactionRow, redirectUrl?: string): PaymentView {
  return {
    subscriptionTransactionId: txn.id,
    status: txn.status,
    transactionId: txn.gatewayTransactionId,
    ...(txn.failureCode ? { declineReason: txn.failureCode as DeclineReason } : {}),
    ...(redirectUrl && txn.status === 'PENDING' ? { redirectUrl } : {}),
  };
}

/** The view of a payment that may have settled; a late renewal-link card payment is voided at once. */
async function settledView(db: Db, processor: PaymentProcessor | null, txn: TransactionRow, redirectUrl?: string): Promise<PaymentView> {
  if (!(await isLatePayment(db, txn))) return toPaymentView(txn, redirectUrl);
  const voided = processor ? await voidLatePayment(db, processor, txn, new Date()) : null;
  return { ...toPaymentView(voided ?? txn), late: true };
}

/** What the checkout pays with: the instrument, and the payer's consent where the processor needs it. */
export interface CheckoutPayment {
  instrument: PaymentInstrument;
  consent?: Consent;
}

function methodOf(instrument: PaymentInstrument): { paymentMethodType: PaymentMethodType; cardBrand: string | null; cardLast4: string | null } {
  switch (instrument.type) {
    case 'CARD':
      return { paymentMethodType: 'CARD', cardBrand: instrument.card.brand, cardLast4: instrument.card.last4 };
    case 'CARD_TOKEN':
      return { paymentMethodType: 'CARD', cardBrand: instrument.brand, cardLast4: instrument.last4 };
    case 'NEQUI':
    case 'NEQUI_TOKEN':
      return { paymentMethodType: 'NEQUI', cardBrand: null, cardLast4: null };
    case 'PSE':
      return { paymentMethodType: 'PSE', cardBrand: null, cardLast4: null };
  }
}

/** Refuses a token that has failed too often this hour (card testing), before the processor is called. */
async function checkFailedAttempts(tx: Db, scope: { planId: string; renewalLinkId: string | null }, now: Date) {
  const failed = await recentFailedAttempts(tx, scope, new Date(now.getTime() - HOUR_MS));
  if (failed.count >= MAX_FAILED_ATTEMPTS_PER_HOUR) {
    const retryAfter = Math.max(1, Math.ceil(((failed.oldest?.getTime() ?? now.getTime()) + HOUR_MS - now.getTime()) / 1000));
    throw new ApiError('rate_limited', 'Too many failed attempts on this link; try again later', {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/** Why a token refuses a payment under the plan's lock, or null (docs/billing.md#renewal-links). */
function refusal(plan: PlanRow, link: RenewalLinkRow | null, now: Date): ApiError | null {
  if (!link) return trialRefusal(plan);
  if (link.status === 'PAID') return new ApiError('conflict', 'This renewal has already been paid');
  if (link.status === 'EXPIRED' || (link.status === 'OPEN' && link.expiresAt <= now)) {
    return new ApiError('session_expired', 'This renewal link has expired: the subscription was cancelled for non-payment');
  }
  if (link.status !== 'OPEN' || plan.status !== 'ACTIVE') return new ApiError('conflict', 'This renewal link no longer takes payments');
  return null;
}

/** A plan's first charge: its seats less the coupon, plus the setup fee, which no coupon takes anything off (docs/billing.md#setup-fee). */
function firstCharge(plan: PlanRow, now: Date) {
  const list = firstListAmount(plan, now);
  const discount = discountFor(plan, list);
  const setupFee = plan.setupFee ?? 0;
  return { kind: 'INITIAL' as const, amount: list - discount + setupFee, discount, setupFee, quantity: plan.quantity, unitAmount: plan.amount };
}

/** Under the plan's lock: refuses what may not be paid, then names the payment and records the customer's language. */
function preparePayment({ instrument, lang, renewalLinkId }: { instrument: PaymentInstrument; lang?: Lang; renewalLinkId: string | null }, now: Date) {
  return async (tx: Db, plan: PlanRow): Promise<NewCharge> => {
    const link = renewalLinkId ? ((await getRenewalLink(tx, renewalLinkId)) ?? null) : null;
    const refused = refusal(plan, link, now);
    if (refused) throw refused;
    await checkFailedAttempts(tx, { planId: plan.id, renewalLinkId }, now);
    if (lang && lang !== plan.customerLang) {
      await setCustomerLang(tx, plan.id, lang);
    }
    // The plan's amount, or the period's: nothing the browser sends decides what is charged.
    if (link) return { kind: 'RENEWAL', amount: link.amount, periodStart: link.period, renewalLinkId: link.id, ...methodOf(instrument) };
    return { ...firstCharge(plan, now), ...methodOf(instrument) };
  };
}

/** Pays a link without a free trial with a card (the sandbox's card reaches the server). */
export async function payWithCard(
  db: Db,
  processors: ProcessorSource,
  { token, card, lang, now }: { token: string; card: Card; lang?: Lang; now?: Date },
): Promise<PaymentView> {
  const view = await payCheckout(db, processors, { token, payment: { instrument: { type: 'CARD', card } }, lang, now });
  if (isTrialStart(view)) throw new Error('This link starts a free trial: pay it with payCheckout');
  return view;
}

/** Whether the checkout's answer is a trial's start (no transaction) rather than a payment. */
export function isTrialStart(view: PaymentView | TrialStartView): view is TrialStartView {
  return view.subscriptionTransactionId === null;
}

/** Refuses what the merchant's processor cannot take before any transaction is recorded. */
function checkInstrument(kind: 'sandbox' | 'wompi', payment: CheckoutPayment) {
  const type = payment.instrument.type;
  if (kind === 'wompi' && type === 'CARD') {
    throw new ApiError('invalid_request', 'Card details are tokenized in the browser at Wompi; send only the token (cardToken)');
  }
  if (kind === 'sandbox' && (type === 'CARD_TOKEN' || type === 'NEQUI_TOKEN')) {
    throw new ApiError('invalid_request', 'The sandbox takes the card fields or a Nequi number, not a processor token');
  }
  if (kind === 'wompi' && !payment.consent) {
    throw new ApiError('invalid_request', "Accept Wompi's end-user policy and personal-data authorization (acceptanceToken, personalDataToken)", {
      details: [{ path: 'acceptanceToken', message: 'is required' }],
    });
  }
}

/** Now for the merchant of a checkout token (lib/clock.ts); real time where test clocks do not exist. */
async function checkoutNow(db: Db, token: string): Promise<Date> {
  if (!testClocksAvailable()) return new Date();
  const found = await findPlanByToken(db, token).catch(() => null);
  return found ? merchantNow(db, found.plan.merchantId) : new Date();
}

/** The customer pays the link through the merchant's processor: its outcome or PENDING; `lang` is recorded on the plan. */
export async function payCheckout(
  db: Db,
  processors: ProcessorSource,
  { token, payment, lang, now: at }: { token: string; payment: CheckoutPayment; lang?: Lang; now?: Date },
): Promise<PaymentView | TrialStartView> {
  // Dated on the merchant's test clock where it has one, so the payment is its plan's newest record.
  const now = at ?? (await checkoutNow(db, token));
  const { plan: found, link, merchantStatus } = await findCheckoutPlan(db, token, now);
  // A suspended merchant takes no payments (docs/operations.md#suspending-a-merchant); every charge checks again as it opens.
  if (merchantStatus !== 'ACTIVE') throw new ApiError('conflict', 'This merchant is not taking payments right now');
  const processor = await resolveProcessor(processors, found.merchantId);
  if (!processor) throw new ApiError('conflict', 'This merchant cannot take payments yet');
  checkInstrument(processor.kind, payment);
  if (payment.instrument.type === 'NEQUI' && processor.kind === 'wompi' && found.modality === 'RECURRING') {
    throw new ApiError('invalid_request', 'A Nequi subscription is paid with a Nequi token tokenized in the browser (nequiToken)');
  }
  // A plan with a free trial saves the method now and is first charged when the trial ends (docs/billing.md#trials).
  if (!link && found.trialDays) return startTrial(db, processor, { found, payment, lang, now });
  const opened = await openCharge(db, {
    plan: async (tx) => (await findCheckoutPlan(tx, token, now)).plan.id,
    now,
    prepare: preparePayment({ instrument: payment.instrument, lang, renewalLinkId: link?.id ?? null }, now),
  });
  if (opened.status !== 'opened') throw new ApiError('conflict', 'A payment for this link is already in progress');
  const { instrument, consent } = payment;
  if (instrument.type === 'NEQUI_TOKEN' && opened.plan.modality === 'RECURRING' && processor.nequiTokenStatus && consent) {
    // A Nequi subscription waits for the payer's approval in the app: docs/processors.md#nequi-subscriptions.
    return toPaymentView(await startNequiSubscription(db, processor, opened, { token: instrument.token, consent }, now));
  }
  const { transaction, result } = await sendPayerPayment(db, processor, opened, payment, now, token);
  return settledView(db, processor, transaction, result?.redirectUrl);
}

/** A payment of this link as it stands; a PENDING one is settled first if the processor has decided. */
export async function getPayment(
  db: Db,
  processors: ProcessorSource,
  { token, transactionId }: { token: string; transactionId: string },
): Promise<PaymentView> {
  const notFound = new ApiError('not_found', 'No payment with this id for this checkout session');
  if (!isId('txn', transactionId)) throw notFound;
  // Whatever the link's expiry: a PENDING payment keeps settling after the link expires.
  const { plan, link } = await findPlanByToken(db, token);
  const txn = await getTransactionOfPlan(db, { planId: plan.id, transactionId });
  // A renewal link shows only its own payments; a plan's token, every payment of the plan as before.
  if (!txn || (link && txn.renewalLinkId !== link.id)) throw notFound;
  if (txn.status !== 'PENDING') return settledView(db, null, txn);
  if (!txn.gatewayTransactionId) {
    // A Nequi subscription waiting for the payer's approval: asked, and gone on with once decided.
    const wait = await findNequiWait(db, txn.id);
    const processor = wait ? await resolveProcessor(processors, plan.merchantId) : null;
    const resumed = wait && processor ? await resumeNequiWait(db, processor, wait) : null;
    return settledView(db, processor, resumed ?? txn);
  }
  const processor = await resolveProcessor(processors, plan.merchantId);
  if (!processor) return toPaymentView(txn);
  const result = await processor.retrieve(txn.gatewayTransactionId);
  if (result.status === 'PENDING') return toPaymentView(txn, result.redirectUrl);
  return settledView(db, processor, (await settleCharge(db, { planId: plan.id, transactionId: txn.id }, result)).transaction);
}
