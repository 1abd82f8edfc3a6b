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
