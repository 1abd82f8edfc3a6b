import { z } from 'zod';
import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { getTransactionForMerchant } from '@/db/queries/transactions';
import { ApiError } from '@/lib/api/errors';
import { recordVoid } from './void';
import { isId } from '@/lib/ids';
import { errorFields, log } from '@/lib/log';
import { merchantProcessors, resolveProcessor, wompiKeysOf } from '@/lib/processors';
import { findNequiWaitByToken } from '@/db/queries/nequi-waits';
import { resumeNequiWait } from './nequi-subscription';
import { settleCharge } from './settle';
import { verifyEventChecksum } from '@/lib/processors/wompi/signatures';

// Wompi events (docs/processors.md#wompis-events) are checked, not believed: checksum over what we act
// on, under 72 hours old, the transaction read back from Wompi. A valid event is always a 200.

/** A replayed capture is refused, Wompi's own retries are not. */
export const WOMPI_EVENT_MAX_AGE_MS = 72 * 3600_000;

const SIGNED_PROPERTIES: Record<string, readonly string[]> = {
  'transaction.updated': ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'],
  'nequi_token.updated': ['nequi_token.id', 'nequi_token.status'],
};

/** As the route parses it (400 with one detail per bad field). */
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

/** The waiting subscription goes on at once. */
async function nequiTokenUpdated(db: Db, merchantId: string, data: unknown): Promise<EventOutcome> {
  const token = nequiTokenSchema.safeParse(data);
  if (!token.success) return 'ignored';
  const wait = await findNequiWaitByToken(db, { merchantId, nequiToken: token.data.id });
  if (!wait) return 'ignored';
  const processor = await resolveProcessor(merchantProcessors(db), merchantId);
  if (!processor) return 'pending';
  try {
    // The token's state as Wompi tells it now, not as the event says.
    return (await resumeNequiWait(db, processor, wait)) ? 'settled' : 'pending';
  } catch (error) {
    // The poll and the settler ask too: nothing is lost.
    log.error('could not go on with a Nequi subscription from a Wompi event', { merchantId, transactionId: wait.transactionId, ...errorFields(error) });
    return 'pending';
  }
}

/** Each named so the merchant's logs tell them apart (401). */
function refusal(merchantId: string, event: z.output<typeof wompiEventSchema>, now: Date): ApiError | null {
  const age = now.getTime() - event.timestamp * 1000;
  if (!Number.isFinite(age) || age > WOMPI_EVENT_MAX_AGE_MS) {
    log.warn('Wompi event refused: older than 72 hours', { merchantId, event: event.event, timestamp: event.timestamp });
    return new ApiError('unauthorized', 'The event is older than 72 hours');
  }
  const missing = (SIGNED_PROPERTIES[event.event] ?? []).filter((property) => !event.signature.properties.includes(property));
  if (missing.length) {
    log.warn('Wompi event refused: its signature leaves out what it says', { merchantId, event: event.event, missing });
    return new ApiError('unauthorized', `The event's signature does not cover ${missing.join(', ')}`);
  }
  return null;
}

export async function receiveWompiEvent(db: Db, merchantId: string, event: z.output<typeof wompiEventSchema>, now = new Date()): Promise<EventOutcome> {
  const merchant = isId('mch', merchantId) ? await getMerchant(db, merchantId) : undefined;
  const keys = merchant?.processorType === 'wompi' ? wompiKeysOf(merchant) : null;
  if (!keys || !verifyEventChecksum(event, keys.eventsSecret)) throw new ApiError('unauthorized', 'The event checksum does not match');
  const refused = refusal(merchantId, event, now);
  if (refused) throw refused;

  if (event.event === 'nequi_token.updated') return nequiTokenUpdated(db, merchantId, event.data.nequi_token);
  if (event.event !== 'transaction.updated') return 'ignored';
  const found = transactionSchema.safeParse(event.data.transaction);
  if (!found.success) return 'ignored';
  const said = found.data;
  const txn = isId('txn', said.reference) ? await getTransactionForMerchant(db, { merchantId, transactionId: said.reference }) : undefined;
  if (!txn) {
    log.warn('Wompi event about a reference we do not know', { merchantId, reference: said.reference });
    return 'ignored';
  }
  if (txn.amount !== said.amount_in_cents || (txn.gatewayTransactionId && txn.gatewayTransactionId !== said.id)) {
    log.error('Wompi event does not match our transaction', { merchantId, transactionId: txn.id, gatewayTransactionId: said.id });
    return 'ignored';
  }
  const voids = said.status === 'VOIDED' && txn.status === 'APPROVED';
  if (txn.status !== 'PENDING' && !voids) return 'already_settled';

  const told = await readBack(db, merchantId, txn.id, said.id);
  if (!told) return 'pending';
  if (told.reference !== txn.id || told.amountInCents !== txn.amount) {
    log.error('Wompi\'s transaction is not the one the event named', { merchantId, transactionId: txn.id, gatewayTransactionId: said.id });
    return 'ignored';
  }
  if (voids) {
    // A void (our API or Wompi's dashboard) is a change to record, not a repeat.
    if (told.status !== 'VOIDED') return 'already_settled';
    return (await recordVoid(db, txn)) ? 'settled' : 'already_settled';
  }
  if (told.result.status === 'PENDING') return 'pending';
  try {
    const { transaction } = await settleCharge(db, { planId: txn.planId, transactionId: txn.id }, told.result);
    return transaction.status === 'PENDING' ? 'pending' : 'settled';
  } catch (error) {
    // The settler asks about every PENDING charge: nothing is lost.
    log.error('could not settle a charge from a Wompi event', { merchantId, transactionId: txn.id, ...errorFields(error) });
    return 'pending';
  }
}

/** Null when Wompi gives none (the settler asks again later). */
async function readBack(db: Db, merchantId: string, transactionId: string, gatewayTransactionId: string) {
  const processor = await resolveProcessor(merchantProcessors(db), merchantId);
  if (!processor?.readTransaction) return null;
  try {
    return await processor.readTransaction(gatewayTransactionId);
  } catch (error) {
    log.warn('Wompi did not answer about an event\'s transaction; the settler will ask', { merchantId, transactionId, gatewayTransactionId, ...errorFields(error) });
    return null;
  }
}
