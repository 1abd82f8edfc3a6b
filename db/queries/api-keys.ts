import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, preparedFor } from '../client';
import { apiKeys, merchants } from '../schema';

const findApiKeyQuery = preparedFor((db) =>
  db
    .select({
      key: apiKeys.key,
      merchantId: apiKeys.merchantId,
      secretHash: apiKeys.secretHash,
      readOnly: apiKeys.readOnly,
      revokedAt: apiKeys.revokedAt,
      merchantStatus: merchants.status,
      apiVersion: merchants.apiVersion,
    })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(eq(apiKeys.key, sql.placeholder('key')))
    .limit(1)
    .prepare('find_api_key'),
);

/** The key with what authentication needs of its merchant (every merchant request: prepared). */
export async function findApiKey(db: Db, key: string) {
  const [row] = await findApiKeyQuery(db).execute({ key });
  return row;
}

/**
 * Records the use of `keys` now, in one statement; a key already recorded in the last minute is
 * left alone (last use is kept to the minute).
 */
export async function touchApiKeys(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    // One array parameter, not one parameter per key: cheap to build however many keys there are.
    .where(and(sql`${apiKeys.key} = any(${sql.param(keys)}::text[])`, or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
}

/** A merchant's keys, newest first: public parts and dates only, never the secret's hash. */
export async function listApiKeys(db: Db, merchantId: string) {
  return db
    .select({ key: apiKeys.key, readOnly: apiKeys.readOnly, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.merchantId, merchantId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.key));
}

export async function insertApiKey(db: Db, values: { key: string; merchantId: string; secretHash: string; readOnly?: boolean }): Promise<void> {
  await db.insert(apiKeys).values(values);
}

/** Revokes one of this merchant's active keys; false when it is not one (another merchant's, unknown, already revoked). */
export async function revokeApiKey(db: Db, { merchantId, key }: { merchantId: string; key: string }): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.key, key), eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt)))
    .returning({ key: apiKeys.key });
  return rows.length > 0;
}

/** Sends `payload` on a LISTEN/NOTIFY channel (the key cache's beat, lib/auth/key-cache.ts). */
export async function notifyChannel(db: Db, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}
