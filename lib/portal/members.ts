import type { Db } from '@/db/client';
import { merchantUsers } from '@/db/queries/users';

// A merchant's people (docs/portal.md#accounts).

/** Who is told about a security change of the merchant: its owners. */
export async function merchantOwners(db: Db, merchantId: string) {
  return merchantUsers(db, merchantId);
}
