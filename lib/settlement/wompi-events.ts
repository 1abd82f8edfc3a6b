import { z } from 'zod';
import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { getTransactionForMerchant } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { recordVoid } from './void';
import { isId } from '@/lib/ids';
import { errorFields, log } from '@/lib/log';
import { merchantProcessors, resolveProcessor, wompiKeysOf } from '@/lib/payments';
import { findNequiWaitByToken } from '@/db/queries/nequi-waits';
import { resumeNequiWait } from './nequi-subscription';
import { settleCharge } from './settle';
import { toChargeResult } from '@/lib/payments/wompi/processor';
import type { WompiTransaction } from '@/lib/payments/wompi/client';
import { verifyEventChecksum } from '@/lib/payments/wompi/signatures';

// Events from a merchant's Wompi account (docs/processors.md). The checksum is checked from the
// event's own property list; a valid event is answered 200 whether it settles a charge now, was
// applied before (Wompi retries until it gets a 200), or is about nothing of ours. A VOIDED status
// for an APPROVED charge records the void (made through our API or in Wompi's dashboard) once.

/** An event's envelope, as the route parses it (400 with one detail per bad field). */
export const wompiEventSchema = z.object({
  event: z.string().meta({ examples: ['transaction.updated'] }),
  data: z.record(z.string(), z.unknown()),
  environment: z.enum(['test', 'prod']).optional(),
  signature: z.object({ properties: z.array(z.string()).max(50), checksum: z.string().max(200) }),
  timestamp: z.union([z.number(), z.string().regex(/^\d+$/)]).transform(Number),
});

const transactionSchema = z.object({
  id: z.string(),
  reference: z.string(),
  amount_in_cents: z.number(),
  status: z.enum(['PENDING', 'APPROVED', 'DECLINED', 'VOIDED', 'ERROR']),
});

type EventOutcome = 'settled' | 'already_settled' | 'pending' | 'ignored';

const nequiTokenSchema = z.object({ id: z.string().min(1).max(200), status: z.enum(['PENDING', 'APPROVED', 'DECLINED']) });

/**
 * The payer answered in the Nequi app: a Nequi subscription waiting for it goes on at once, with
 * no page open (docs/processors.md#nequi-subscriptions).
 */
async function nequiTokenUpdated(db: Db, merchantId: string, data: unknown): Promise<EventOutcome> {
  const token = nequiTokenSchema.safeParse(data);
  if (!token.success) return 'ignored';
  const wait = await findNequiWaitByToken(db, { merchantId, nequiToken: token.data.id });
  if (!wait) return 'ignored';
  const processor = await resolveProcessor(merchantProcessors(db), merchantId);
  if (!processor) return 'pending';
  try {
    // Gone on with (charged, or declined), or still waiting for the payer.
    return (await resumeNequiWait(db, processor, wait, { status: token.data.status })) ? 'settled' : 'pending';
  } catch (error) {
    // The page's poll and the settler ask Wompi about the token too: nothing is lost.
    log.error('could not go on with a Nequi subscription from a Wompi event', { merchantId, transactionId: wait.transactionId, ...errorFields(error) });
    return 'pending';
  }
}

export async function receiveWompiEvent(db: Db, merchantId: string, event: z.output<typeof wompiEventSchema>): Promise<EventOutcome> {
  const refused = new ApiError('unauthorized', 'The event checksum does not match');
  const merchant = isId('mch', merchantId) ? await getMerchant(db, merchantId) : undefined;
  const keys = merchant?.processorType === 'wompi' ? wompiKeysOf(merchant) : null;
  if (!keys || !verifyEventChecksum(event, keys.eventsSecret)) throw refused;

  if (event.event === 'nequi_token.updated') return nequiTokenUpdated(db, merchantId, event.data.nequi_token);
  if (event.event !== 'transaction.updated') return 'ignored';
  const found = transactionSchema.safeParse(event.data.transaction);
  if (!found.success) return 'ignored';
  const transaction = found.data;
  const txn = isId('txn', transaction.reference) ? await getTransactionForMerchant(db, { merchantId, transactionId: transaction.reference }) : undefined;
  if (!txn) {
    log.warn('Wompi event about a reference we do not know', { merchantId, reference: transaction.reference });
    return 'ignored';
  }
  if (txn.amount !== transaction.amount_in_cents || (txn.gatewayTransactionId && txn.gatewayTransactionId !== transaction.id)) {
    log.error('Wompi event does not match our transaction', { merchantId, transactionId: txn.id, gatewayTransactionId: transaction.id });
    return 'ignored';
  }
  if (transaction.status === 'VOIDED' && txn.status === 'APPROVED') {
    // A void, through our API or in Wompi's dashboard: a change to record, not a repeat to drop.
    return (await recordVoid(db, txn)) ? 'settled' : 'already_settled';
  }
  if (txn.status !== 'PENDING') return 'already_settled';
  const result = toChargeResult(transaction as WompiTransaction);
  if (result.status === 'PENDING') return 'pending';
  try {
    const { transaction } = await settleCharge(db, { planId: txn.planId, transactionId: txn.id }, result);
    return transaction.status === 'PENDING' ? 'pending' : 'settled';
  } catch (error) {
    // The settler asks Wompi about every PENDING charge (docs/settlement.md): nothing is lost.
    log.error('could not settle a charge from a Wompi event', { merchantId, transactionId: txn.id, ...errorFields(error) });
    return 'pending';
  }
}
