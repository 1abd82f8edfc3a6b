import type { Db } from '@/db/client';
import { eventExists } from '@/db/queries/activity';
import { getEventForMerchant } from '@/db/queries/webhooks';
import { ApiError } from '@/lib/api/errors';
import { isId } from '@/lib/ids';

/**
 * One of the merchant's webhook events with its attempts, on the rule of findMerchantPlan: 404
 * for a malformed or unknown id, 403 for another merchant's event, whose data is never read.
 */
export async function findMerchantEvent(db: Db, merchantId: string, eventId: string) {
  if (!isId('evt', eventId)) throw new ApiError('not_found', 'No webhook event with this id');
  const event = await getEventForMerchant(db, { merchantId, eventId });
  if (event) return event;
  if (await eventExists(db, eventId)) throw new ApiError('forbidden', 'This webhook event belongs to another account');
  throw new ApiError('not_found', 'No webhook event with this id');
}
