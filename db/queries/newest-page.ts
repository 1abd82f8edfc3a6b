import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';

type MerchantTable = PgTable & { id: AnyPgColumn; merchantId: AnyPgColumn };

/** One merchant's rows of `table` that `filters` keep, newest first (ids sort by time), `limit` after the `before` cursor (an id). */
export async function newestPage<T extends MerchantTable>(
  db: Db,
  table: T,
  { merchantId, before, limit }: { merchantId: string; before?: string; limit: number },
  ...filters: (SQL | undefined)[]
): Promise<T['$inferSelect'][]> {
  return db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.merchantId, merchantId), ...filters, before ? lt(table.id, before) : undefined))
    .orderBy(desc(table.id))
    .limit(limit);
}
