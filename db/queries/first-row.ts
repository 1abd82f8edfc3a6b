import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';

/** The one row of `table` that `where` picks (the first, if it picks more), or undefined. */
export async function firstRow<T extends PgTable>(db: Db, table: T, where: SQL | undefined): Promise<T['$inferSelect'] | undefined> {
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(where)
    .limit(1);
  return row as T['$inferSelect'] | undefined;
}
