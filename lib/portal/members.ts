import type { Db } from '@/db/client';
import { merchantOwnerRows } from '@/db/queries/users';

// A merchant's people (docs/portal.md#members).

/** Who is told about a security change of the merchant: its owners. */
export async function merchantOwners(db: Db, merchantId: string) {
  return merchantOwnerRows(db, merchantId);
}
