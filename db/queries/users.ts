import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { sessions, twoFactors, users } from '@/db/schema';

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

export async function usersByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(inArray(users.id, ids));
}

/** The user's second factor, verified or still being enrolled; undefined when none. */
export async function findTwoFactor(db: Db, userId: string): Promise<{ verified: boolean } | undefined> {
  const [row] = await db.select({ verified: twoFactors.verified }).from(twoFactors).where(eq(twoFactors.userId, userId));
  return row;
}

/** The merchant's people to tell about a security change, with the first user as a fallback owner. */
export async function merchantUsers(db: Db, merchantId: string) {
  return db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.merchantId, merchantId)).orderBy(users.createdAt);
}
