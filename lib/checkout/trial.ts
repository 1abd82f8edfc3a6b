import type { Db } from '@/db/client';
import { lockPlan, type PlanRow, setCustomerLang, transitionPlan } from '@/db/queries/plans';
import { ApiError } from '@/lib/api/errors';
import { anchorFor, intervalOf, MONTHLY } from '@/lib/calendar/interval';
import { noteTrialStarted } from '@/lib/notices';
import type { Lang } from '@/lib/i18n/locale';
import type { DeclineReason, PaymentProcessor } from '@/lib/processors';
import { type Consent, type PaymentInstrument, savedMethodType } from '@/lib/processors/processor';
import type { TransactionRow } from '@/db/queries/transactions';
import { openCharge, sendCharge } from '@/lib/settlement/attempt';
import { inTransaction } from '@/lib/unit-of-work';

// A free trial's start (docs/billing.md#trials): the method is checked and saved without a charge,
// and the plan goes TRIALING; the renewal sweep makes the first charge at the trial's end.

const DAY_MS = 24 * 60 * 60 * 1000;
/** The notice of a trial's end goes this long before it; a shorter trial has none (its start e-mail says it all). */
export const TRIAL_NOTICE_MS = 3 * DAY_MS;

/** TRIALING: started; DECLINED: the method was refused (try again); PENDING: Nequi awaits approval. */
export interface TrialStartView {
  status: 'TRIALING' | 'PENDING' | 'DECLINED';
  subscriptionTransactionId: null;
  transactionId: null;
  declineReason?: DeclineReason;
  /** TRIALING: when the trial ends and the first charge is made, epoch ms. */
  trialEndsAt?: number;
}

const view = (status: TrialStartView['status'], extra: Partial<TrialStartView> = {}): TrialStartView => ({
  status,
  subscriptionTransactionId: null,
  transactionId: null,
  ...extra,
});

/** Why a plan's token cannot start its trial now, or null. */
export function trialRefusal(plan: Pick<PlanRow, 'status'>): ApiError | null {
  if (plan.status === 'TRIALING') return new ApiError('conflict', 'The free trial of this link has already started');
  if (plan.status === 'ACTIVE' || plan.status === 'COMPLETED') return new ApiError('conflict', 'This link has already been paid');
  if (plan.status !== 'PENDING_ACTIVATION') return new ApiError('conflict', 'This subscription no longer accepts payments');
  return null;
}

/** When a trial started at `now` ends, and when the notice of its end is due (null: none). */
export function trialSchedule(trialDays: number, now: Date): { endsAt: Date; noticeAt: Date | null } {
  const endsAt = new Date(now.getTime() + trialDays * DAY_MS);
  return { endsAt, noticeAt: trialDays * DAY_MS > TRIAL_NOTICE_MS ? new Date(endsAt.getTime() - TRIAL_NOTICE_MS) : null };
}

/**
 * A trial's setup fee (docs/billing.md#setup-fee), charged to the method just saved before the
 * trial starts, through the one charge attempt; the trial starts only once it is approved.
 */
async function chargeSetupFee(db: Db, processor: PaymentProcessor, found: PlanRow, token: string, now: Date): Promise<Pick<TransactionRow, 'status' | 'failureCode'>> {
  const opened = await openCharge(db, {
    plan: found.id,
    now,
    prepare: async (_tx, plan) =>
      plan.status === 'PENDING_ACTIVATION' && plan.setupFee
        ? { kind: 'SETUP_FEE', amount: plan.setupFee, discount: 0, setupFee: plan.setupFee, paymentMethodToken: token, paymentMethodType: savedMethodType(token) }
        : 'skip',
  });
  if (opened.status === 'in_progress') throw new ApiError('conflict', 'A payment of this link is already in progress');
  if (opened.status !== 'opened') throw new ApiError('conflict', 'This subscription no longer accepts payments');
  const { transaction } = await sendCharge(
    db,
    processor,
    opened,
    (txn) => processor.charge({ amount: txn.amount, currency: 'COP', reference: txn.id, paymentMethod: token, initiator: 'customer', customerEmail: found.customerEmail }),
    { now },
  );
  return transaction;
}

/** Starts the trial of `found` (a plan with trialDays, its own token) with the customer's method. */
export async function startTrial(
  db: Db,
  processor: PaymentProcessor,
  { found, payment, lang, now }: { found: PlanRow; payment: { instrument: PaymentInstrument; consent?: Consent }; lang?: Lang; now: Date },
): Promise<TrialStartView> {
  const { instrument, consent } = payment;
  if (instrument.type === 'PSE') {
    throw new ApiError('invalid_request', 'method: PSE cannot start a free trial (a bank transfer cannot be charged later without the payer); use a card or Nequi', {
      details: [{ path: 'method', message: 'PSE cannot start a free trial; use a card or Nequi' }],
    });
  }
  const refused = trialRefusal(found);
  if (refused) throw refused;
  if (!processor.saveMethod) throw new ApiError('conflict', 'This merchant cannot start free trials with its processor yet');
  if (instrument.type === 'NEQUI_TOKEN' && processor.nequiTokenStatus) {
    // The account must be approved in the Nequi app before it can become a payment source.
    const status = await processor.nequiTokenStatus(instrument.token);
    if (status === 'PENDING') return view('PENDING');
    if (status === 'DECLINED') return view('DECLINED', { declineReason: 'card_not_supported' });
  }
  const saved = await processor.saveMethod({ instrument, customerEmail: found.customerEmail, consent });
  if (!saved.ok) return view('DECLINED', { declineReason: saved.declineReason });
  if (found.setupFee) {
    const fee = await chargeSetupFee(db, processor, found, saved.token, now);
    if (fee.status === 'PENDING') return view('PENDING');
    if (fee.status !== 'APPROVED') return view('DECLINED', { declineReason: (fee.failureCode as DeclineReason | null) ?? 'processor_error' });
  }
  const plan = await inTransaction(db, async (tx, outbox) => {
    const locked = await lockPlan(tx, found.id);
    const refusedNow = trialRefusal(locked);
    if (refusedNow) throw refusedNow;
    if (lang && lang !== locked.customerLang) await setCustomerLang(tx, locked.id, lang);
    const { endsAt, noticeAt } = trialSchedule(locked.trialDays!, now);
    const started = await transitionPlan(tx, locked.id, ['PENDING_ACTIVATION'], {
      status: 'TRIALING',
      nextChargeDate: endsAt,
      trialEndsAt: endsAt,
      trialNoticeAt: noticeAt,
      // The trial's end is the first due date: months and years keep its day from then on.
      billingAnchorDay: anchorFor(intervalOf(locked) ?? MONTHLY, endsAt),
      paymentMethodToken: saved.token,
      renewalCollection: 'AUTOMATIC',
      renewalFailures: 0,
    });
    if (!started) throw new ApiError('conflict', 'This subscription no longer accepts payments');
    await noteTrialStarted(tx, outbox, started, now);
    return started;
  });
  return view('TRIALING', { trialEndsAt: plan.trialEndsAt!.getTime() });
}
