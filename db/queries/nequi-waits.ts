import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { wompiNequiWaits } from '../schema';
import { firstRow } from './first-row';

// Wompi Nequi subscriptions waiting for the payer's approval in the app (db/schema.ts wompiNequiWaits).

export type NequiWait = typeof wompiNequiWaits.$inferSelect;

export async function insertNequiWait(db: Db, wait: Omit<NequiWait, 'createdAt'>): Promise<void> {
  await db.insert(wompiNequiWaits).values(wait);
}

export async function findNequiWait(db: Db, transactionId: string): Promise<NequiWait | undefined> {
  const [row] = await db.select().from(wompiNequiWaits).where(eq(wompiNequiWaits.transactionId, transactionId)).limit(1);
  return row;
}

export async function findNequiWaitByToken(db: Db, { merchantId, nequiToken }: { merchantId: string; nequiToken: string }): Promise<NequiWait | undefined> {
  return firstRow(db, wompiNequiWaits, and(eq(wompiNequiWaits.merchantId, merchantId), eq(wompiNequiWaits.nequiToken, nequiToken)));
}

/** Takes the wait: of the event, the page and the settler racing, only one gets the row and goes on. */
export async function claimNequiWait(db: Db, transactionId: string): Promise<NequiWait | undefined> {
  const [row] = await db.delete(wompiNequiWaits).where(eq(wompiNequiWaits.transactionId, transactionId)).returning();
  return row;
}
