import type { Db } from '@/db/client';
import { getMerchantFacts, type MerchantFacts } from '@/db/queries/merchants';
import type { Outbox } from '@/lib/outbox';

// The merchant's name and e-invoicing settings as a unit of work's records need them (a receipt
// e-mail, an invoice): read once per unit of work, not once per record. Keyed by the unit's outbox,
// which lives exactly as long as its transaction.

const read = new WeakMap<Outbox, Map<string, Promise<MerchantFacts | undefined>>>();

export function merchantFactsIn(tx: Db, outbox: Outbox, merchantId: string): Promise<MerchantFacts | undefined> {
  let known = read.get(outbox);
  if (!known) read.set(outbox, (known = new Map()));
  let facts = known.get(merchantId);
  if (!facts) known.set(merchantId, (facts = getMerchantFacts(tx, merchantId)));
  return facts;
}
