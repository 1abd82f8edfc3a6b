import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type MemberRole, sessions, twoFactors, users } from '@/db/schema';

// Portal users and their sessions, beside better-auth's own reads and writes (lib/portal/auth.ts).

export async function merchantHasUser(db: Db, merchantId: string): Promise<boolean> {
  return (await db.$count(users, eq(users.merchantId, merchantId))) > 0;
}

/** When the session's user last gave the password (and code); undefined for an unknown session. */
export async function sessionAuthenticatedAt(db: Db, sessionId: string): Promise<Date | undefined> {
  const [row] = await db.select({ at: sessions.authenticatedAt }).from(sessions).where(eq(sessions.id, sessionId));
  return row?.at;
}

export async function markSessionAuthenticated(db: Db, sessionId: string, at: Date): Promise<void> {
  await db.update(sessions).set({ authenticatedAt: at }).where(eq(sessions.id, sessionId));
}

/** The user's live sessions, newest first (Ajustes → Seguridad). */
export async function listUserSessions(db: Db, userId: string, now: Date) {
  return db
    .select({ id: sessions.id, ipAddress: sessions.ipAddress, userAgent: sessions.userAgent, createdAt: sessions.createdAt, updatedAt: sessions.updatedAt })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(sessions.createdAt);
}

/** Ends one of the user's sessions; false when it is not theirs. */
export async function deleteUserSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId))).returning({ id: sessions.id });
  return rows.length > 0;
}

/** The user's second factor, verified or still being enrolled; undefined when none. */
export async function findTwoFactor(db: Db, userId: string): Promise<{ verified: boolean } | undefined> {
  const [row] = await db.select({ verified: twoFactors.verified }).from(twoFactors).where(eq(twoFactors.userId, userId));
  return row;
}

/** The merchant's owners (told about every security change). */
export async function merchantOwnerRows(db: Db, merchantId: string) {
  return db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.merchantId, merchantId), eq(users.role, 'owner')))
    .orderBy(asc(users.createdAt));
}

/** The merchant's members, first joined first. */
export async function listMembers(db: Db, merchantId: string) {
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, twoFactorEnabled: users.twoFactorEnabled, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.merchantId, merchantId))
    .orderBy(asc(users.createdAt));
}

export async function countOwners(db: Db, merchantId: string): Promise<number> {
  return db.$count(users, and(eq(users.merchantId, merchantId), eq(users.role, 'owner')));
}

export async function updateMemberRole(db: Db, merchantId: string, userId: string, role: MemberRole): Promise<void> {
  await db.update(users).set({ role }).where(and(eq(users.merchantId, merchantId), eq(users.id, userId)));
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}
