import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { manageLinks, merchants, subscriptionPlans } from '@/db/schema';
import { deleteInBatches } from './batched-delete';
import type { PlanRow } from './plans';

// The customer's manage links, by the SHA-256 of their token (lib/auth/manage-links.ts makes
// and checks the tokens).

/** Prepared: a renewal runs it (docs/performance.md#a-renewals-statements-prepared). */
export async function insertManageLink(db: Db, link: typeof manageLinks.$inferInsert): Promise<void> {
  await db.insert(manageLinks).values(link).prepare('insert_manage_link').execute();
}

/** The plan, and what the page shows of its merchant, behind a link still live at `now`. */
export async function findPlanByManageLink(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<{ plan: PlanRow; merchantName: string; processorType: 'sandbox' | 'wompi'; wompiPublicKey: string | null } | undefined> {
  const [row] = await db
    .select({ plan: subscriptionPlans, merchantName: merchants.name, processorType: merchants.processorType, wompiPublicKey: merchants.wompiPublicKey })
    .from(manageLinks)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, manageLinks.planId))
    .innerJoin(merchants, eq(merchants.id, manageLinks.merchantId))
    .where(and(eq(manageLinks.tokenHash, tokenHash), gt(manageLinks.expiresAt, now)))
    .limit(1);
  return row;
}

/** Counts one opening of the page. */
export async function countManageLinkUse(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db
    .update(manageLinks)
    .set({ uses: sql`${manageLinks.uses} + 1`, lastUsedAt: now })
    .where(eq(manageLinks.tokenHash, tokenHash));
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
