import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { type ApiVersion, isApiVersion } from '@/lib/api-versions';
import type { AuditActor } from '@/lib/audit/record';
import { updateMerchant } from '@/lib/merchants/merchants';

// Settings → API: the merchant's pinned API version (docs/api.md#versioning), what requests without
// ServicePay-Version and every new webhook body use.

export async function getPinnedVersion(db: Db, merchantId: string): Promise<ApiVersion> {
  const row = await getMerchant(db, merchantId);
  if (!row) throw new Error(`merchant ${merchantId} not found`);
  return row.apiVersion;
}

/** Pins `value`; false (nothing changed) when it is not a version. The next request uses it (the key cache forgets). */
export async function savePinnedVersion(db: Db, merchantId: string, value: string, actor?: AuditActor): Promise<boolean> {
  if (!isApiVersion(value)) return false;
  await updateMerchant(db, merchantId, { apiVersion: value }, actor);
  return true;
}
