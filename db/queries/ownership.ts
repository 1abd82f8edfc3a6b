import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { coupons, invoices, subscriptionPlans, transactions, webhookEvents } from '../schema';

// The rows a merchant's request may name by id, by their id prefix.
const TABLES = { sub: subscriptionPlans, txn: transactions, evt: webhookEvents, cpn: coupons, inv: invoices } as const;

export type OwnedKind = keyof typeof TABLES;

/** Whether a row with this id exists at all, reading nothing else of it (to tell 403 from 404). */
export async function rowExists(db: Db, kind: OwnedKind, id: string): Promise<boolean> {
  const table = TABLES[kind];
  const rows = await db.select({ one: sql`1` }).from(table).where(eq(table.id, id)).limit(1);
  return rows.length > 0;
}
