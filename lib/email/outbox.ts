import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { deleteInBatches } from '@/db/queries/batched-delete';
import type { PlanRow, TransactionRow } from '@/db/queries/plans';
import { emailAttempts, type EmailKind, emails, merchants } from '@/db/schema';
import { intervalOf } from '@/lib/billing/interval';
import { createManageLink } from '@/lib/customers/manage-links';
import { createId } from '@/lib/ids';
import type { Outbox } from '@/lib/outbox';
import { type PriceChangeFacts, renderEmail } from './templates';

// The e-mail outbox (docs/customers.md#e-mails), like the webhook outbox: the e-mail is rendered
// and written in the unit of work of the change it reports (lib/unit-of-work.ts), with a fresh
// manage link; sent after commit (send.ts); whatever is left unsent is found by the sweeper.

export type EmailRow = typeof emails.$inferSelect;
export type EmailAttemptRow = typeof emailAttempts.$inferSelect;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/**
 * The wait after each failed attempt (docs/customers.md#e-mails): from 30 s growing to 8 hours, 30
 * hours in all, so an SMTP outage of up to a day loses nothing. After the last one the e-mail
 * is given up: the merchant's plan page says so and offers to send it again.
 */
export const EMAIL_RETRY_DELAYS_MS = [
  30_000, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 20 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 6 * HOUR, 8 * HOUR, 8 * HOUR,
] as const;

/** After this many failed attempts the sweeper leaves an e-mail alone (its attempts say why). */
export const MAX_EMAIL_ATTEMPTS = EMAIL_RETRY_DELAYS_MS.length + 1;

/** When an e-mail that has failed `failedAttempts` times is tried again; null once it is given up. */
export function nextEmailAttemptAt(failedAttempts: number, after: Date): Date | null {
  const delay = EMAIL_RETRY_DELAYS_MS[failedAttempts - 1];
  return delay === undefined ? null : new Date(after.getTime() + delay);
}

/** Writes the customer's e-mail of `kind` about `plan` in the caller's unit of work, which sends it after commit. */
export async function queueCustomerEmail(
  tx: Db,
  outbox: Outbox,
  kind: EmailKind,
  { plan, txn, now = new Date(), change }: { plan: PlanRow; txn?: TransactionRow; now?: Date; change?: PriceChangeFacts },
): Promise<void> {
  const [merchant] = await tx.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, plan.merchantId));
  const link = await createManageLink(tx, plan, { source: kind, now });
  const rendered = renderEmail(kind, {
    merchantName: merchant?.name ?? 'ServicePay',
    customerName: plan.customerFirstName,
    description: plan.description,
    amount: txn?.amount ?? plan.amount,
    interval: intervalOf(plan),
    chargeDate: txn?.chargeDate,
    reference: txn?.gatewayTransactionId,
    nextDate: plan.status === 'ACTIVE' ? plan.nextChargeDate : null,
    reason: kind === 'cancelled' ? plan.cancelReason : null,
    change,
    // An English e-mail opens the manage page in English.
    manageUrl: plan.customerLang === 'en' ? `${link.url}?lang=en` : link.url,
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
  outbox.addEmail(id);
}

/**
 * Takes an unsent e-mail for `leaseMs`; of two senders racing, one gets the row. `claimedUntil`
 * is also the time a failed e-mail waits for (recordEmailAttempt), so one still waiting is not
 * taken. A resend from the portal (`givenUp`) takes one that used all its attempts.
 */
export async function claimEmail(db: Db, id: string, now: Date, leaseMs: number, { givenUp = false } = {}): Promise<EmailRow | undefined> {
  const [row] = await db
    .update(emails)
    .set({ claimedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(emails.id, id),
        isNull(emails.sentAt),
        givenUp ? sql`${emails.attempts} >= ${MAX_EMAIL_ATTEMPTS}` : lt(emails.attempts, MAX_EMAIL_ATTEMPTS),
        or(isNull(emails.claimedUntil), lt(emails.claimedUntil, now)),
      ),
    )
    .returning();
  return row;
}

/**
 * Records one attempt and releases the claim: a successful one marks the e-mail sent; a failed one
 * holds it until its next attempt is due (null once it is given up). Answers that time.
 */
export async function recordEmailAttempt(
  db: Db,
  email: EmailRow,
  attempt: Omit<typeof emailAttempts.$inferInsert, 'emailId'>,
  now: Date = attempt.attemptedAt,
): Promise<Date | null> {
  const next = attempt.ok ? null : nextEmailAttemptAt(email.attempts + 1, now);
  await db.transaction(async (tx) => {
    await tx.insert(emailAttempts).values({ ...attempt, emailId: email.id });
    await tx
      .update(emails)
      .set({ attempts: sql`${emails.attempts} + 1`, claimedUntil: next, ...(attempt.ok ? { sentAt: attempt.attemptedAt } : {}) })
      .where(eq(emails.id, email.id));
  });
  return next;
}

/** One e-mail of the merchant's, or undefined (the portal's resend checks whose it is). */
export async function findEmail(db: Db, id: string): Promise<EmailRow | undefined> {
  const [row] = await db.select().from(emails).where(eq(emails.id, id));
  return row;
}

/** Unsent e-mails older than `createdBefore`, neither claimed nor waiting, with attempts left; oldest first. */
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
