import type { Db } from '@/db/client';
import { databaseUnavailable, uniqueViolation } from '@/db/errors';
import type { PlanRow } from '@/db/queries/plans';
import { lockPlanOfMerchant } from '@/db/queries/plans';
import { insertTransaction, newestTransactionId, type TransactionRow } from '@/db/queries/transactions';
import type { transactions } from '@/db/schema';
import { withDiscount } from '@/lib/coupons/discount';
import { testClocksAvailable } from '@/lib/clock';
import { createId, idTime } from '@/lib/ids';
import { errorFields, log } from '@/lib/log';
import { type ChargeResult, type PaymentProcessor, ProcessorRateLimited } from '@/lib/processors';
import { type ChargeOutcome, outcomeAfterFailedCharge, type Settlement, settleCharge } from './settle';
import { inTransaction } from '@/lib/unit-of-work';

// One charge attempt (docs/architecture.md#a-charge-attempt): openCharge under the plan's lock,
// sendCharge outside any transaction with our id as reference, then the one settlement (./settle.ts).

/** Kind, amount (integer cents), method, the period and discount its receipt shows, the renewal link it pays. */
export type NewCharge = Pick<
  typeof transactions.$inferInsert,
  'kind' | 'amount' | 'paymentMethodType' | 'cardBrand' | 'cardLast4' | 'paymentMethodToken' | 'periodStart' | 'discount' | 'renewalLinkId' | 'quantity' | 'unitAmount' | 'setupFee' | 'usageUnits' | 'usageAmount'
>;

/** A new charge, `{ resume }` a PENDING one, 'skip' or 'in_progress'. */
export type Prepared = NewCharge | { resume: TransactionRow } | 'skip' | 'in_progress';

export type OpenedCharge = { status: 'opened'; plan: PlanRow; txn: TransactionRow };

export type Opening = OpenedCharge | { status: 'skipped' | 'in_progress' };

/** Under the plan's lock `prepare` decides; the charge is recorded PENDING less the coupon. */
export async function openCharge(
  db: Db,
  { plan, now, prepare }: { plan: string | ((tx: Db) => Promise<string>); now: Date; prepare: (tx: Db, plan: PlanRow) => Promise<Prepared> },
): Promise<Opening> {
  try {
    return await inTransaction(db, async (tx): Promise<Opening> => {
      const { plan: locked, merchantStatus } = await lockPlanOfMerchant(tx, typeof plan === 'string' ? plan : await plan(tx));
      // A suspended merchant takes no payments (docs/operations.md#suspending-a-merchant).
      if (merchantStatus !== 'ACTIVE') return { status: 'skipped' };
      const prepared = await prepare(tx, locked);
      if (prepared === 'skip') return { status: 'skipped' };
      if (prepared === 'in_progress') return { status: 'in_progress' };
      if ('resume' in prepared) return { status: 'opened', plan: locked, txn: prepared.resume };
      const txn = await insertTransaction(tx, {
        id: await transactionId(tx, locked.id, now),
        planId: locked.id,
        merchantId: locked.merchantId,
        status: 'PENDING',
        chargeDate: now,
        // `prepare` names the list price; the coupon's discount comes off here for every kind of charge.
        ...withDiscount(locked, prepared),
      });
      return { status: 'opened', plan: locked, txn };
    });
  } catch (error) {
    // The failed insert aborted the transaction: caught outside, after the rollback.
    if (uniqueViolation(error) === 'transactions_one_pending_per_plan') return { status: 'in_progress' };
    throw error;
  }
}

/** A millisecond after the plan's newest when a test clock stands still. */
async function transactionId(tx: Db, planId: string, now: Date): Promise<string> {
  if (!testClocksAvailable()) return createId('txn', now.getTime());
  const newest = await newestTransactionId(tx, planId);
  return createId('txn', Math.max(now.getTime(), newest ? idTime(newest) + 1 : 0));
}

/** Asks the processor with `txn.id` as reference and settles the answer. */
export async function sendCharge<R extends ChargeResult>(
  db: Db,
  processor: PaymentProcessor,
  { plan, txn }: OpenedCharge,
  send: (txn: TransactionRow) => Promise<R>,
  { now, savedMethod }: { now: Date; savedMethod?: (result: R) => string | null },
): Promise<Settlement & { result: R | null; rateLimited?: ProcessorRateLimited }> {
  let result: R | null = null;
  let outcome: ChargeOutcome | null;
  try {
    result = await send(txn);
    outcome = result;
  } catch (error) {
    // Refused for rate before it was handled: the caller decides when to retry.
    if (error instanceof ProcessorRateLimited) return { transaction: txn, plan, settled: false, result, rateLimited: error };
    log.error('payment processor failed', { planId: plan.id, transactionId: txn.id, kind: txn.kind, ...errorFields(error) });
    outcome = await outcomeAfterFailedCharge(processor, txn.id);
  }
  if (!outcome) return { transaction: txn, plan, settled: false, result };
  const method = result && savedMethod ? { paymentMethodToken: savedMethod(result) } : {};
  const answer = outcome;
  const settle = () => settleCharge(db, { planId: plan.id, transactionId: txn.id }, answer, { now, ...method });
  try {
    return { ...(await settle()), result };
  } catch (error) {
    if (!databaseUnavailable(error)) throw error;
    // Answered, but the database is out of reach: the customer sees PENDING and the answer is recorded
    // once the database is back.
    log.warn('the processor answered but the database is out of reach; retrying the settlement', {
      planId: plan.id,
      transactionId: txn.id,
      status: answer.status,
      ...errorFields(error),
    });
    retryInBackground(settle, { planId: plan.id, transactionId: txn.id });
    return { transaction: txn, plan, settled: false, result };
  }
}

/** 250 ms doubling to 2 s, for 10 minutes; then the settler takes it. */
const SETTLE_RETRY = { firstDelayMs: 250, maxDelayMs: 2000, giveUpAfterMs: 10 * 60_000 };

const retrying = new Set<Promise<void>>();

function retryInBackground(settle: () => Promise<Settlement>, ids: { planId: string; transactionId: string }): void {
  const started = Date.now();
  const run = async () => {
    for (let delay = SETTLE_RETRY.firstDelayMs, tries = 1; ; delay = Math.min(delay * 2, SETTLE_RETRY.maxDelayMs), tries++) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      try {
        const { transaction } = await settle();
        log.info('settlement recorded once the database answered', { ...ids, status: transaction.status, tries, waitedMs: Date.now() - started });
        return;
      } catch (error) {
        if (!databaseUnavailable(error)) {
          log.error('settlement failed after the database came back; the settler will take the charge', { ...ids, ...errorFields(error) });
          return;
        }
        if (Date.now() - started >= SETTLE_RETRY.giveUpAfterMs) {
          log.error('the database stayed out of reach; the settler will take the charge', { ...ids, tries, ...errorFields(error) });
          return;
        }
      }
    }
  };
  const running = run().finally(() => retrying.delete(running));
  retrying.add(running);
}

/** Resolves once every retried settlement is recorded or given up (tests). */
export async function settleRetriesSettled(): Promise<void> {
  while (retrying.size > 0) await Promise.all(retrying);
}

/** Charges the plan's saved method without the payer (a renewal, a proration). */
export function chargeSavedMethod(
  db: Db,
  processor: PaymentProcessor,
  opened: OpenedCharge,
  now: Date,
): Promise<Settlement & { result: ChargeResult | null; rateLimited?: ProcessorRateLimited }> {
  return sendCharge(
    db,
    processor,
    opened,
    (txn) =>
      processor.charge({
        amount: txn.amount,
        currency: 'COP',
        reference: txn.id,
        paymentMethod: txn.paymentMethodToken ?? '',
        initiator: 'recurring',
        customerEmail: opened.plan.customerEmail,
      }),
    { now },
  );
}
