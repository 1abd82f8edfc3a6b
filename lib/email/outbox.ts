import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { deleteInBatches } from '@/db/queries/batched-delete';
import type { PlanRow, TransactionRow } from '@/db/queries/plans';
import { emailAttempts, type EmailKind, emails, merchants } from '@/db/schema';
import { createManageLink } from '@/lib/customers/manage-links';
import { createId } from '@/lib/ids';
import { type RenewalFacts, renderEmail } from './templates';

// The e-mail outbox (docs/customers.md#e-mails), like the webhook outbox: the e-mail is rendered
// and written in the database transaction of the change it reports, with a fresh manage link;
// sent after commit (send.ts); whatever is left unsent is found by the sweeper.

export type EmailRow = typeof emails.$inferSelect;
export type EmailAttemptRow = typeof emailAttempts.$inferSelect;

/** After this many failed attempts the sweeper leaves an e-mail alone (its attempts say why). */
export const MAX_EMAIL_ATTEMPTS = 5;

/** Writes the customer's e-mail of `kind` about `plan` inside the caller's transaction; returns its id. */
export async function queueCustomerEmail(
  tx: Db,
  kind: EmailKind,
  { plan, txn, renewal, now = new Date() }: { plan: PlanRow; txn?: TransactionRow; renewal?: RenewalFacts & { amount: number }; now?: Date },
): Promise<string> {
  const [merchant] = await tx.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, plan.merchantId));
  const link = await createManageLink(tx, plan, { source: kind, now });
  const rendered = renderEmail(kind, {
    merchantName: merchant?.name ?? 'ServicePay',
    customerName: plan.customerFirstName,
    description: plan.description,
    amount: txn?.amount ?? renewal?.amount ?? plan.amount,
    chargeDate: txn?.chargeDate,
    reference: txn?.gatewayTransactionId,
    nextDate: plan.status === 'ACTIVE' ? plan.nextChargeDate : null,
    reason: kind === 'cancelled' ? plan.cancelReason : null,
    // An English e-mail opens the manage page in English.
    manageUrl: plan.customerLang === 'en' ? `${link.url}?lang=en` : link.url,
    ...(renewal ? { renewal: { ...renewal, url: plan.customerLang === 'en' ? `${renewal.url}?lang=en` : renewal.url } } : {}),
  }, plan.customerLang);
  const id = createId('eml', now.getTime());
  await tx.insert(emails).values({
    id,
    merchantId: plan.merchantId,
    planId: plan.id,
    transactionId: txn?.id ?? null,
    kind,
    toAddress: plan.customerEmail,
    ...rendered,
    createdAt: now,
  });
  return id;
}

/** Takes an unsent e-mail for `leaseMs`; of two senders racing, one gets the row. */
export async function claimEmail(db: Db, id: string, now: Date, leaseMs: number): Promise<EmailRow | undefined> {
  const [row] = await db
    .update(emails)
    .set({ claimedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(emails.id, id),
        isNull(emails.sentAt),
        lt(emails.attempts, MAX_EMAIL_ATTEMPTS),
        or(isNull(emails.claimedUntil), lt(emails.claimedUntil, now)),
      ),
    )
    .returning();
  return row;
}

/** Records one attempt and releases the claim; a successful one marks the e-mail sent. */
export async function recordEmailAttempt(db: Db, email: EmailRow, attempt: Omit<typeof emailAttempts.$inferInsert, 'emailId'>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(emailAttempts).values({ ...attempt, emailId: email.id });
    await tx
      .update(emails)
      .set({ attempts: sql`${emails.attempts} + 1`, claimedUntil: null, ...(attempt.ok ? { sentAt: attempt.attemptedAt } : {}) })
      .where(eq(emails.id, email.id));
  });
}

/** Unsent e-mails older than `createdBefore`, not under a live claim, with attempts left; oldest first. */
export async function findUnsentEmails(db: Db, { createdBefore, now, limit }: { createdBefore: Date; now: Date; limit: number }) {
  const rows = await db
    .select({ id: emails.id })
    .from(emails)
    .where(
      and(
        isNull(emails.sentAt),
        lt(emails.createdAt, createdBefore),
        lt(emails.attempts, MAX_EMAIL_ATTEMPTS),
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

/** Deletes e-mails written before `before`, sent or given up, with their attempts; returns how many went. */
export function deleteEmailsCreatedBefore(db: Db, before: Date): Promise<number> {
  return deleteInBatches(
    db,
    async (tx, limit) => (await tx.select({ id: emails.id }).from(emails).where(lt(emails.createdAt, before)).limit(limit)).map((e) => e.id),
    async (tx, ids) => {
      await tx.delete(emailAttempts).where(inArray(emailAttempts.emailId, ids));
      await tx.delete(emails).where(inArray(emails.id, ids));
    },
  );
}
