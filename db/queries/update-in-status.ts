import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';

type StatusTable = PgTable & { id: AnyPgColumn; status: AnyPgColumn; updatedAt: AnyPgColumn };

/**
 * Sets `values` on row `id` only while its status is `from` (one or any of a list), in the same
 * statement: of two racing changes one wins. The row after, or undefined when it had moved on
 * (or fails `also`, a further condition). Prepared: a renewal runs it twice, and each caller's
 * `values` and `from` are of a fixed shape (docs/performance.md#a-renewals-statements-prepared).
 */
export async function updateInStatus<T extends StatusTable>(
  db: Db,
  table: T,
  id: string,
  from: string | readonly string[],
  values: Partial<T['$inferInsert']>,
  also?: SQL,
): Promise<T['$inferSelect'] | undefined> {
  const [row] = await db
    .update(table as PgTable)
    .set({ ...values, updatedAt: sql`now()` } as never)
    .where(and(eq(table.id, id), typeof from === 'string' ? eq(table.status, from) : inArray(table.status, [...from]), also))
    .returning()
    .prepare('update_in_status')
    .execute();
  return row as T['$inferSelect'] | undefined;
}
