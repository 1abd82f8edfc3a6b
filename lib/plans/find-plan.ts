import type { Db } from '@/db/client';
import { planExists } from '@/db/queries/plans';
import { ApiError } from '@/lib/api/errors';
import { isId } from '@/lib/ids';

/**
 * Loads a plan through a merchant-scoped query and maps a miss: 404 for a malformed or unknown
 * id, 403 for another merchant's plan (DECISIONS 2), whose data is never read.
 */
export async function findMerchantPlan<T>(db: Db, planId: string, load: () => Promise<T | undefined>): Promise<T> {
  if (!isId('sub', planId)) throw new ApiError('not_found', 'No subscription plan with this id');
  const found = await load();
  if (found) return found;
  if (await planExists(db, planId)) throw new ApiError('forbidden', 'This subscription plan belongs to another account');
  throw new ApiError('not_found', 'No subscription plan with this id');
}
