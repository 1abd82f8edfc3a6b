import { inArray, lt } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../client';

/**
 * Deletes rows in batches of at most `batchSize`, each in its own transaction, so no statement
 * holds many row locks or runs long; at most `maxBatches` a run (the next run takes the rest).
 * `take` picks up to `limit` keys of rows to go; `remove` deletes them and what hangs on them.
 * Returns how many went.
 */
export async function deleteInBatches<K>(
  db: Db,
  take: (tx: Db, limit: number) => Promise<K[]>,
  remove: (tx: Db, keys: K[]) => Promise<void>,
  { batchSize = 500, maxBatches = 20 } = {},
): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await db.transaction(async (tx) => {
      const keys = await take(tx, batchSize);
      if (keys.length > 0) await remove(tx, keys);
      return keys.length;
    });
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}

/**
 * Deletes the rows of `rows.table` created before `before` (by `rows.createdAt`), and first, in the
 * same batch, the rows of `dependents.table` that refer to them (by `dependents.key`), as
 * deleteInBatches does. Returns how many of `rows` went.
 */
export function deleteCreatedBefore(
  db: Db,
  rows: { table: PgTable; id: PgColumn; createdAt: PgColumn },
  dependents: { table: PgTable; key: PgColumn },
  before: Date,
  batches?: { batchSize?: number; maxBatches?: number },
): Promise<number> {
  return deleteInBatches(
    db,
    async (tx, limit) => (await tx.select({ id: rows.id }).from(rows.table).where(lt(rows.createdAt, before)).limit(limit)).map((r) => r.id as string),
    async (tx, ids) => {
      await tx.delete(dependents.table).where(inArray(dependents.key, ids));
      await tx.delete(rows.table).where(inArray(rows.id, ids));
    },
    batches,
  );
}
