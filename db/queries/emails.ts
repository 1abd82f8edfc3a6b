import { and, asc, desc, eq, gte, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { ACCOUNT_EMAIL_KINDS, emailAttempts, emails } from '@/db/schema';
import { deleteCreatedBefore } from './batched-delete';

// The customer e-mail outbox's rows (lib/email: what is written and when it is sent).

export type EmailRow = typeof emails.$inferSelect;

/** Prepared: a renewal runs it (docs/performance.md#a-renewals-statements-prepared). */
export async function insertEmail(tx: Db, email: typeof emails.$inferInsert): Promise<void> {
  await tx.insert(emails).values(email).prepare('insert_email').execute();
}

/**
 * Takes an unsent e-mail until `until`; of two senders racing, one gets the row. `claimedUntil`
 * is also the time a failed e-mail waits for (recordEmailAttempt), so one still waiting is not
 * taken. With `givenUp` (a resend from the portal) it takes one that used all its `maxAttempts`.
 */
export async function claimEmail(
  db: Db,
  id: string,
  { now, until, maxAttempts, givenUp }: { now: Date; until: Date; maxAttempts: number; givenUp: boolean },
): Promise<EmailRow | undefined> {
  const [row] = await db
    .update(emails)
    .set({ claimedUntil: until })
    .where(
      and(
        eq(emails.id, id),
        isNull(emails.sentAt),
        givenUp ? sql`${emails.attempts} >= ${maxAttempts}` : lt(emails.attempts, maxAttempts),
        or(isNull(emails.claimedUntil), lt(emails.claimedUntil, now)),
      ),
    )
    .returning();
  return row;
}

/** Records one attempt and releases the claim: a successful one marks the e-mail sent; a failed one holds it until `next`. */
export async function recordEmailAttempt(db: Db, emailId: string, attempt: Omit<typeof emailAttempts.$inferInsert, 'emailId'>, next: Date | null): Promise<void> {
  // One statement, a data-modifying CTE: the attempt and the e-mail's row are written together or not at all.
  const counted = db.$with('counted').as(
    db
      .update(emails)
      .set({ attempts: sql`${emails.attempts} + 1`, claimedUntil: next, ...(attempt.ok ? { sentAt: attempt.attemptedAt } : {}) })
      .where(eq(emails.id, emailId))
      .returning({ id: emails.id }),
  );
  await db.with(counted).insert(emailAttempts).values({ ...attempt, emailId });
}

/** One e-mail, or undefined (the portal's resend checks whose it is). */
export async function findEmail(db: Db, id: string): Promise<EmailRow | undefined> {
  const [row] = await db.select().from(emails).where(eq(emails.id, id));
  return row;
}

/** Unsent e-mails older than `createdBefore`, neither claimed nor waiting, with attempts left; oldest first. */
export async function findUnsentEmails(db: Db, { createdBefore, now, limit, maxAttempts }: { createdBefore: Date; now: Date; limit: number; maxAttempts: number }) {
  const rows = await db
    .select({ id: emails.id })
    .from(emails)
    .where(
      and(
        isNull(emails.sentAt),
        lt(emails.createdAt, createdBefore),
        lt(emails.attempts, maxAttempts),
        or(isNull(emails.claimedUntil), lt(emails.claimedUntil, now)),
      ),
    )
    .orderBy(asc(emails.createdAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** A plan's e-mails with their attempts, newest first (the merchant's plan page). */
export async function listPlanEmails(db: Db, { merchantId, planId }: { merchantId: string; planId: string }) {
  const rows = await db
    .select()
    .from(emails)
    .where(and(eq(emails.merchantId, merchantId), eq(emails.planId, planId)))
    .orderBy(desc(emails.id));
  if (rows.length === 0) return [];
  const attempts = await db.select().from(emailAttempts).where(inArray(emailAttempts.emailId, rows.map((r) => r.id))).orderBy(asc(emailAttempts.id));
  return rows.map((row) => ({ ...row, attemptList: attempts.filter((a) => a.emailId === row.id) }));
}

/** The latest e-mails, kept or sent (the development page, /dev/emails). */
export async function listRecentEmails(db: Db, limit = 50) {
  return db.select().from(emails).orderBy(desc(emails.id)).limit(limit);
}

/**
 * One merchant's customer e-mails, newest first (the portal's sandbox e-mail log); the merchant is
 * in the `where`, and its account e-mails (a reset link, an invitation) are not.
 */
export async function listMerchantEmails(db: Db, merchantId: string, limit = 50) {
  return db
    .select()
    .from(emails)
    .where(and(eq(emails.merchantId, merchantId), notInArray(emails.kind, [...ACCOUNT_EMAIL_KINDS])))
    .orderBy(desc(emails.id))
    .limit(limit);
}

/** Deletes e-mails written before `before`, sent or given up, with their attempts; returns how many went. */
export function deleteEmailsCreatedBefore(db: Db, before: Date): Promise<number> {
  return deleteCreatedBefore(db, { table: emails, id: emails.id, createdAt: emails.createdAt }, { table: emailAttempts, key: emailAttempts.emailId }, before);
}

/** The receipt of a charge not sent yet, if any (a receipt waiting for its electronic invoice). */
export async function findUnsentReceipt(db: Db, transactionId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: emails.id })
    .from(emails)
    .where(and(eq(emails.transactionId, transactionId), eq(emails.kind, 'receipt'), isNull(emails.sentAt)))
    .limit(1);
  return row?.id;
}

/** When the charge's receipt was written, if it has one. */
export async function receiptWrittenAt(db: Db, transactionId: string): Promise<Date | undefined> {
  const [row] = await db.select({ createdAt: emails.createdAt }).from(emails).where(and(eq(emails.transactionId, transactionId), eq(emails.kind, 'receipt'))).limit(1);
  return row?.createdAt;
}

/** Lets an unsent e-mail be taken again at once (a receipt whose invoice just arrived). */
export async function releaseEmailClaim(db: Db, id: string): Promise<void> {
  await db.update(emails).set({ claimedUntil: null }).where(and(eq(emails.id, id), isNull(emails.sentAt)));
}

/** The e-mail's body as it will be sent (a receipt with its invoice), so what is kept is what went out. */
export async function updateEmailBody(db: Db, id: string, body: { text: string; html: string }): Promise<void> {
  await db.update(emails).set(body).where(and(eq(emails.id, id), isNull(emails.sentAt)));
}

/** Whether the merchant was already sent an e-mail of this kind and subject (since `since`, when given). */
export async function merchantEmailSent(db: Db, { merchantId, kind, subject, since }: { merchantId: string; kind: EmailRow['kind']; subject: string; since?: Date }): Promise<boolean> {
  const [row] = await db
    .select({ id: emails.id })
    .from(emails)
    .where(and(eq(emails.merchantId, merchantId), eq(emails.kind, kind), eq(emails.subject, subject), since ? gte(emails.createdAt, since) : undefined))
    .limit(1);
  return row !== undefined;
}
