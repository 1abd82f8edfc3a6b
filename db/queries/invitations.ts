import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { memberInvitations } from '@/db/schema';

// Invitations to a merchant's portal (lib/portal/team.ts): only a hash of the e-mailed token is kept.

export async function insertInvitation(tx: Db, row: Omit<typeof memberInvitations.$inferInsert, 'id'>): Promise<void> {
  await tx.insert(memberInvitations).values(row);
}

/** The invitation of this token hash, neither accepted nor expired at `now`. */
export async function findOpenInvitation(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(memberInvitations)
    .where(and(eq(memberInvitations.tokenHash, tokenHash), isNull(memberInvitations.acceptedAt), gt(memberInvitations.expiresAt, now)));
  return row;
}

/** Marks it accepted; false when another acceptance got there first. */
export async function acceptInvitationRow(db: Db, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(memberInvitations)
    .set({ acceptedAt: now })
    .where(and(eq(memberInvitations.id, id), isNull(memberInvitations.acceptedAt)))
    .returning({ id: memberInvitations.id });
  return rows.length > 0;
}

export async function listOpenInvitations(db: Db, merchantId: string, now: Date = new Date()) {
  return db
    .select({ email: memberInvitations.email, role: memberInvitations.role, expiresAt: memberInvitations.expiresAt })
    .from(memberInvitations)
    .where(and(eq(memberInvitations.merchantId, merchantId), isNull(memberInvitations.acceptedAt), gt(memberInvitations.expiresAt, now)))
    .orderBy(asc(memberInvitations.createdAt));
}
