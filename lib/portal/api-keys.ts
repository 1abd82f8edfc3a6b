import type { Db } from '@/db/client';
import { insertApiKey, listApiKeys, revokeApiKey } from '@/db/queries/api-keys';
import { type AuditActor, recordAudit } from '@/lib/audit/record';
import { forgetApiKeys } from '@/lib/auth/key-cache';
import { generateApiKey, generateApiSecret, sha256Hex } from '@/lib/auth/secrets';
import { inTransaction } from '@/lib/unit-of-work';

// Settings → API (docs/api.md#authentication): a merchant may hold several active keys, so a new key
// can replace an old one without downtime. The secret exists in clear only in `createKey`'s answer.

type ApiKeyView = Awaited<ReturnType<typeof listApiKeys>>[number];

export function listKeys(db: Db, merchantId: string): Promise<ApiKeyView[]> {
  return listApiKeys(db, merchantId);
}

/** A new key of the merchant; with `actor`, recorded in the audit log (`api_key.created`) in the same transaction. */
export async function createKey(db: Db, merchantId: string, actor?: AuditActor, { readOnly = false }: { readOnly?: boolean } = {}): Promise<{ apiKey: string; apiSecret: string }> {
  const apiKey = generateApiKey();
  const apiSecret = generateApiSecret();
  await inTransaction(db, async (tx) => {
    await insertApiKey(tx, { key: apiKey, merchantId, secretHash: sha256Hex(apiSecret), readOnly });
    if (actor) await recordAudit(tx, { merchantId, actor, action: 'api_key.created', target: apiKey, changes: { readOnly: { from: null, to: readOnly } } });
  });
  return { apiKey, apiSecret };
}

/** Revokes one of the merchant's keys (the last one too); how many remain, or null for no such key. */
export async function revokeKey(db: Db, merchantId: string, key: string, actor?: AuditActor): Promise<{ activeLeft: number } | null> {
  const revoked = await inTransaction(db, async (tx) => {
    if (!(await revokeApiKey(tx, { merchantId, key }))) return false;
    if (actor) await recordAudit(tx, { merchantId, actor, action: 'api_key.revoked', target: key });
    return true;
  });
  if (!revoked) return null;
  // Refused from the next request on in this process; the database announces it to the others.
  forgetApiKeys(db);
  const keys = await listApiKeys(db, merchantId);
  return { activeLeft: keys.filter((k) => !k.revokedAt).length };
}
