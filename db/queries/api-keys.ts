import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, preparedFor } from '../client';
import { apiKeys, merchants } from '../schema';

const findApiKeyQuery = preparedFor((db) =>
  db
    .select({
      key: apiKeys.key,
      merchantId: apiKeys.merchantId,
      secretHash: apiKeys.secretHash,
      revokedAt: apiKeys.revokedAt,
      merchantStatus: merchants.status,
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

/** Records use, at most once a minute per key, so authentication does not write on every call. */
export async function touchApiKey(db: Db, key: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiKeys.key, key), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
}
