import { and, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { deleteInBatches } from '@/db/queries/batched-delete';
import type { PlanRow } from '@/db/queries/plans';
import { type EmailKind, manageLinks, merchants, subscriptionPlans, transactions } from '@/db/schema';
import { sha256Hex } from '@/lib/auth/secrets';
import { env } from '@/lib/env';
import { randomBase62 } from '@/lib/ids';
import type { Lang } from '@/lib/i18n/locale';

// The customer's way in (docs/customers.md#the-manage-page): /manage/<token>, from a link that
// expires. Only a SHA-256 of the token is stored, so the table cannot open any plan; a forged,
// unknown or expired token finds nothing, and the page then shows no data at all.

export const MANAGE_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const MANAGE_TOKEN_PATTERN = /^mng_[0-9A-Za-z]{40}$/;

export type ManageLinkSource = 'merchant' | EmailKind;

export interface ManageLink {
  url: string;
  expiresAt: Date;
}

/** A new link to the plan's page, valid for `ttlMs` (7 days by default). */
export async function createManageLink(
  db: Db,
  plan: Pick<PlanRow, 'id' | 'merchantId'>,
  { source, now = new Date(), ttlMs = MANAGE_LINK_TTL_MS }: { source: ManageLinkSource; now?: Date; ttlMs?: number },
): Promise<ManageLink> {
  const token = `mng_${randomBase62(40)}`;
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db.insert(manageLinks).values({ tokenHash: sha256Hex(token), planId: plan.id, merchantId: plan.merchantId, source, expiresAt, createdAt: now });
  return { url: `${env().APP_URL}/manage/${token}`, expiresAt };
}

/** The plan (and its merchant's name) a live token opens, or null for a malformed, unknown or expired one. */
export async function findManagedPlan(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<{ plan: PlanRow; merchantName: string; processorType: 'sandbox' | 'wompi'; wompiPublicKey: string | null } | null> {
  if (!MANAGE_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ plan: subscriptionPlans, merchantName: merchants.name, processorType: merchants.processorType, wompiPublicKey: merchants.wompiPublicKey })
    .from(manageLinks)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, manageLinks.planId))
    .innerJoin(merchants, eq(merchants.id, manageLinks.merchantId))
    .where(and(eq(manageLinks.tokenHash, sha256Hex(token)), gt(manageLinks.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

/** Counts one opening of the page (the merchant's plan page shows it). */
export async function recordManageLinkUse(db: Db, token: string, now: Date = new Date()): Promise<void> {
  await db
    .update(manageLinks)
    .set({ uses: sql`${manageLinks.uses} + 1`, lastUsedAt: now })
    .where(eq(manageLinks.tokenHash, sha256Hex(token)));
}

/**
 * The customer chose to read the manage page in `lang` (its `?lang=`): their e-mails follow
 * (docs/customers.md#e-mails). Not a change of the plan: its updatedAt stays.
 */
export async function recordCustomerLang(db: Db, plan: PlanRow, lang: Lang): Promise<void> {
  if (plan.customerLang === lang) return;
  await db.update(subscriptionPlans).set({ customerLang: lang }).where(eq(subscriptionPlans.id, plan.id));
}

/** A plan's charges for its customer, newest first. */
export function listPlanCharges(db: Db, planId: string) {
  return db
    .select({
      id: transactions.id,
      kind: transactions.kind,
      status: transactions.status,
      amount: transactions.amount,
      chargeDate: transactions.chargeDate,
      paymentMethodType: transactions.paymentMethodType,
      cardLast4: transactions.cardLast4,
    })
    .from(transactions)
    .where(eq(transactions.planId, planId))
    .orderBy(desc(transactions.id))
    .limit(50);
}

/** The merchant's view of a plan's links: how many, how often opened, and when last. */
export async function manageLinkUse(db: Db, planId: string) {
  const [row] = await db
    .select({
      links: sql<number>`count(*)::int`,
      uses: sql<number>`coalesce(sum(${manageLinks.uses}), 0)::int`,
      lastUsedAt: sql<Date | null>`max(${manageLinks.lastUsedAt})`.mapWith(manageLinks.lastUsedAt),
    })
    .from(manageLinks)
    .where(eq(manageLinks.planId, planId));
  return row ?? { links: 0, uses: 0, lastUsedAt: null };
}

/** Deletes manage links that expired before `before` (the hash of a dead token); returns how many went. */
export function deleteManageLinksExpiredBefore(db: Db, before: Date): Promise<number> {
  return deleteInBatches(
    db,
    async (tx, limit) =>
      (await tx.select({ tokenHash: manageLinks.tokenHash }).from(manageLinks).where(lt(manageLinks.expiresAt, before)).limit(limit)).map((l) => l.tokenHash),
    async (tx, hashes) => void (await tx.delete(manageLinks).where(inArray(manageLinks.tokenHash, hashes))),
  );
}
