import type { Db } from '@/db/client';
import { findOwned } from './ownership';

/** A plan through a merchant-scoped query: 404 for a malformed or unknown id, 403 for another merchant's. */
export function findMerchantPlan<T>(db: Db, planId: string, load: () => Promise<T | undefined>): Promise<T> {
  return findOwned(db, 'sub', planId, load);
}
