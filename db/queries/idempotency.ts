import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { idempotencyKeys } from '../schema';
import { firstRow } from './first-row';

const IDEMPOTENCY_WINDOW = sql`interval '24 hours'`;

/**
 * Claims (merchant, key) for this request inside the caller's transaction. A concurrent request
 * with the same key blocks on the unique key until the claimant commits or rolls back. Returns
 * true when claimed (no live record: new, or older than 24 h); false when a record stands.
 */
export async function claimIdempotencyKey(db: Db, values: { merchantId: string; key: string; requestHash: string }) {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ ...values, responseStatus: 0, responseBody: '' })
    .onConflictDoUpdate({
      target: [idempotencyKeys.merchantId, idempotencyKeys.key],
      set: { requestHash: values.requestHash, responseStatus: 0, responseBody: '', createdAt: sql`now()` },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - ${IDEMPOTENCY_WINDOW}`,
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

export async function getIdempotencyRecord(db: Db, { merchantId, key }: { merchantId: string; key: string }) {
  return firstRow(db, idempotencyKeys, and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key)));
}

export async function saveIdempotentResponse(
  db: Db,
  values: { merchantId: string; key: string; status: number; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: values.status, responseBody: values.body })
    .where(and(eq(idempotencyKeys.merchantId, values.merchantId), eq(idempotencyKeys.key, values.key)));
}

/**
 * Deletes idempotency records past the 24 h window, at most `batchSize` per statement so no
 * statement holds many row locks or runs long; returns how many went. The database's clock
 * decides, as in the claim (a test clock in the future must not end live records).
 */
export async function deleteExpiredIdempotencyKeys(db: Db, { batchSize = 500, maxBatches = 20 } = {}): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const expired = db
      .select({ merchantId: idempotencyKeys.merchantId, key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(sql`${idempotencyKeys.createdAt} < now() - ${IDEMPOTENCY_WINDOW}`)
      .limit(batchSize);
    const rows = await db
      .delete(idempotencyKeys)
      .where(sql`(${idempotencyKeys.merchantId}, ${idempotencyKeys.key}) in (${expired})`)
      .returning({ key: idempotencyKeys.key });
    deleted += rows.length;
    if (rows.length < batchSize) break;
  }
  return deleted;
}
