import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { apiKeys, merchants } from '../schema';

/** The key with what authentication needs of its merchant. */
export async function findApiKey(db: Db, key: string) {
  const [row] = await db
    .select({
      key: apiKeys.key,
      merchantId: apiKeys.merchantId,
      secretHash: apiKeys.secretHash,
      revokedAt: apiKeys.revokedAt,
      merchantStatus: merchants.status,
    })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(eq(apiKeys.key, key))
    .limit(1);
  return row;
}

/** Records use, at most once a minute per key, so authentication does not write on every call. */
export async function touchApiKey(db: Db, key: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiKeys.key, key), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
}
