import type { Db } from '@/db/client';
import { findNequiWait } from '@/db/queries/nequi-waits';
import type { TransactionRow } from '@/db/queries/transactions';
import { claimPendingCheck, findPendingToSettle } from '@/db/queries/settlement';
import { voidLatePayments } from './late-payments';
import { resumeNequiWait } from './nequi-subscription';
import { runBounded, sweepLimits } from '@/lib/bounded';
import { errorFields, log } from '@/lib/log';
import { merchantProcessors, type PaymentProcessor } from '@/lib/processors';
import { NEVER_RECEIVED, settleCharge } from './settle';

// The settler (docs/settlement.md#the-settler): every PENDING charge reaches a final state. With a
// processor id it is asked at doubling intervals; without one, looked up after ORPHAN_AFTER_MS, else
// ERROR. A conditional update claims each check, so two instances never ask twice.

const FIRST_CHECK_AFTER_MS = 10_000;
/** After every call that could still give a charge its id has timed out. */
export const ORPHAN_AFTER_MS = 2 * 60_000;
export const MAX_CHECK_INTERVAL_MS = 10 * 60_000;

type ProcessorFor = (txn: TransactionRow) => PaymentProcessor | null | Promise<PaymentProcessor | null>;

const merchantProcessor =
  (db: Db): ProcessorFor =>
  (txn) =>
    (merchantProcessors(db) as (merchantId: string) => Promise<PaymentProcessor | null>)(txn.merchantId);

interface SettlerSummary {
  checked: number;
  settled: number;
  /** Never received by the processor, now ERROR. */
  orphaned: number;
  stillPending: number;
  failed: number;
}

type Check = 'settled' | 'orphaned' | 'stillPending' | 'failed';

async function check(db: Db, txn: TransactionRow, processorFor: ProcessorFor, now: Date): Promise<Check> {
  const processor = await processorFor(txn);
  if (!processor) return 'stillPending';
  // A Nequi subscription awaiting approval is no orphan: its token is asked about.
  const wait = txn.gatewayTransactionId ? undefined : await findNequiWait(db, txn.id);
  if (wait) {
    const resumed = await resumeNequiWait(db, processor, wait, { now });
    return resumed && resumed.status !== 'PENDING' ? 'settled' : 'stillPending';
  }
  const known = txn.gatewayTransactionId ? await processor.retrieve(txn.gatewayTransactionId) : await processor.findByReference(txn.id);
  const { transaction, settled } = await settleCharge(db, { planId: txn.planId, transactionId: txn.id }, known ?? NEVER_RECEIVED, { now, unsent: !known });
  if (transaction.status === 'PENDING') return 'stillPending';
  if (!settled) return 'settled';
  return known ? 'settled' : 'orphaned';
}

/** Claims every PENDING transaction due at `now` and asks about it, bounded (lib/bounded.ts). */
export async function runSettler(
  db: Db,
  { now = new Date(), processorFor = merchantProcessor(db), limit = 500 }: { now?: Date; processorFor?: ProcessorFor; limit?: number } = {},
): Promise<SettlerSummary> {
  const summary: SettlerSummary = { checked: 0, settled: 0, orphaned: 0, stillPending: 0, failed: 0 };
  const schedule = { now, firstCheckAfterMs: FIRST_CHECK_AFTER_MS, orphanAfterMs: ORPHAN_AFTER_MS, maxIntervalMs: MAX_CHECK_INTERVAL_MS };
  let due: TransactionRow[] | null = null;
  await runBounded<TransactionRow>(
    {
      next: async (max, held) => {
        due ??= await findPendingToSettle(db, { ...schedule, limit });
        const taken: TransactionRow[] = [];
        const rest: TransactionRow[] = [];
        for (const txn of due) (taken.length < max && !held.has(txn.merchantId) ? taken : rest).push(txn);
        due = rest;
        return taken;
      },
      keyOf: (txn) => txn.merchantId,
      run: async (txn) => {
        if (!(await claimPendingCheck(db, txn, schedule))) return;
        summary.checked++;
        try {
          summary[await check(db, txn, processorFor, now)]++;
        } catch (error) {
          summary.failed++;
          log.error('settler could not settle a pending charge', { transactionId: txn.id, planId: txn.planId, ...errorFields(error) });
        }
      },
    },
    sweepLimits(),
  );
  // Then late card payments of renewal links, voided.
  await voidLatePayments(db, processorFor, now).catch((error: unknown) => log.error('settler could not void late payments', errorFields(error)));
  return summary;
}
