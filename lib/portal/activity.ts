import type { Db } from '@/db/client';
import { getEventForMerchant } from '@/db/queries/webhooks';
import { findOwned } from '@/lib/api/ownership';

/** One of the merchant's webhook events with its attempts: 404 unknown, 403 another merchant's. */
export function findMerchantEvent(db: Db, merchantId: string, eventId: string) {
  return findOwned(db, 'evt', eventId, () => getEventForMerchant(db, { merchantId, eventId }));
}
