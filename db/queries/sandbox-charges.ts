import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { sandboxCharges } from '../schema';

/** The processor id the sandbox charged under `reference`, or null. */
export async function findSandboxCharge(db: Db, reference: string): Promise<string | null> {
  const [row] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.reference, reference)).limit(1);
  return row?.gatewayTransactionId ?? null;
}

/** Inserts the charge unless the reference has one; returns the id that holds (first writer wins). */
export async function claimSandboxCharge(db: Db, reference: string, gatewayTransactionId: string): Promise<string> {
  const [inserted] = await db
    .insert(sandboxCharges)
    .values({ reference, gatewayTransactionId })
    .onConflictDoNothing({ target: sandboxCharges.reference })
    .returning({ id: sandboxCharges.gatewayTransactionId });
  return inserted?.id ?? (await findSandboxCharge(db, reference))!;
}
