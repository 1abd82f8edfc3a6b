import type { Db } from '@/db/client';
import { claimNequiWait, insertNequiWait, type NequiWait } from '@/db/queries/nequi-waits';
import { lockPlan } from '@/db/queries/plans';
import { getTransactionForMerchant, getTransactionOfPlan } from '@/db/queries/transactions';
import type { TransactionRow } from '@/db/queries/transactions';
import type { PaymentProcessor } from '@/lib/processors';
import type { Consent } from '@/lib/processors/processor';
import type { OpenedCharge } from './attempt';
import { NEVER_RECEIVED, settleCharge } from './settle';
import { sendPayerPayment } from './payer-payment';
import { inTransaction } from '@/lib/unit-of-work';

// A Nequi subscription's first payment (docs/processors.md#nequi-subscriptions) waits PENDING for the
// payer's approval; whoever hears first (the event, the page's poll, the settler) charges or declines.

/** The acceptance pair it holds expires an hour after issue. */
const NEQUI_WAIT_MS = 55 * 60_000;

type Status = 'PENDING' | 'APPROVED' | 'DECLINED';

export async function startNequiSubscription(
  db: Db,
  processor: PaymentProcessor,
  opened: OpenedCharge,
  { token, consent }: { token: string; consent: Consent },
  now: Date,
): Promise<TransactionRow> {
  const status = await processor.nequiTokenStatus!(token);
  if (status === 'PENDING') {
    await insertNequiWait(db, { transactionId: opened.txn.id, merchantId: opened.plan.merchantId, nequiToken: token, acceptanceToken: consent.acceptanceToken, personalDataToken: consent.personalDataToken });
    return opened.txn;
  }
  return decide(db, processor, opened, { token, consent }, status, now);
}

async function decide(db: Db, processor: PaymentProcessor, opened: OpenedCharge, { token, consent }: { token: string; consent: Consent }, status: 'APPROVED' | 'DECLINED', now: Date) {
  if (status === 'DECLINED') {
    const declined = { status: 'DECLINED' as const, gatewayTransactionId: null, declineReason: 'card_not_supported' as const };
    return (await settleCharge(db, { planId: opened.plan.id, transactionId: opened.txn.id }, declined, { now })).transaction;
  }
  // The token stands for the approved account: the phone is not sent again.
  const payment = { instrument: { type: 'NEQUI_TOKEN' as const, token, phoneNumber: '' }, consent };
  return (await sendPayerPayment(db, processor, opened, payment, now)).transaction;
}

/** Ends as ERROR before its consent expires. */
export async function resumeNequiWait(
  db: Db,
  processor: PaymentProcessor,
  wait: NequiWait,
  { status, now = new Date() }: { status?: Status; now?: Date } = {},
): Promise<TransactionRow | null> {
  const known = status ?? (await processor.nequiTokenStatus!(wait.nequiToken));
  const expired = now.getTime() - wait.createdAt.getTime() > NEQUI_WAIT_MS;
  if (known === 'PENDING' && !expired) return null;
  const claimed = await claimNequiWait(db, wait.transactionId);
  if (!claimed) return null;
  const opened = await inTransaction(db, async (tx) => {
    const txn = await getTransactionForMerchant(tx, { merchantId: wait.merchantId, transactionId: wait.transactionId });
    if (!txn) return null;
    const plan = await lockPlan(tx, txn.planId);
    const current = await getTransactionOfPlan(tx, { planId: plan.id, transactionId: txn.id });
    return current ? { status: 'opened' as const, plan, txn: current } : null;
  });
  if (!opened || opened.txn.status !== 'PENDING') return opened?.txn ?? null;
  if (known === 'PENDING') {
    return (await settleCharge(db, { planId: opened.plan.id, transactionId: opened.txn.id }, NEVER_RECEIVED, { now })).transaction;
  }
  return decide(db, processor, opened, { token: claimed.nequiToken, consent: { acceptanceToken: claimed.acceptanceToken, personalDataToken: claimed.personalDataToken } }, known, now);
}
