import { and, asc, eq, gte, inArray, isNotNull, lte, ne, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { afterDuePlan } from './plans';
import { clockScope } from './test-clocks';
import { merchants, renewalLinks, type RenewalLinkStatus, subscriptionPlans, transactions } from '../schema';
import type { TransactionRow } from './transactions';
import { firstRow } from './first-row';
import { updateInStatus } from './update-in-status';

// Renewal links (docs/billing.md#renewal-links). Every change of a link happens under its plan's
// row lock (lib/billing/renewal-links.ts), and each update is conditional on the link still being
// OPEN, so the rule holds in the statement too.

export type RenewalLinkRow = typeof renewalLinks.$inferSelect;

/**
 * The period's link: the one inserted now, or the one that already exists for that plan and period
 * (one per period, a unique index; `created` says which).
 */
export async function insertRenewalLink(
  db: Db,
  values: Omit<typeof renewalLinks.$inferInsert, 'status' | 'remindersSent' | 'updatedAt'>,
): Promise<{ link: RenewalLinkRow; created: boolean }> {
  const [row] = await db.insert(renewalLinks).values(values).onConflictDoNothing({ target: [renewalLinks.planId, renewalLinks.period] }).returning();
  if (row) return { link: row, created: true };
  const [existing] = await db
    .select()
    .from(renewalLinks)
    .where(and(eq(renewalLinks.planId, values.planId), eq(renewalLinks.period, values.period)));
  return { link: existing!, created: false };
}

/** A link by its token, with its plan and the merchant's public face (the checkout page). */
export async function getRenewalLinkByToken(db: Db, token: string) {
  const [row] = await db
    .select({ link: renewalLinks, plan: subscriptionPlans, merchantName: merchants.name, allowedDomains: merchants.allowedDomains, merchantStatus: merchants.status })
    .from(renewalLinks)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, renewalLinks.planId))
    .innerJoin(merchants, eq(merchants.id, renewalLinks.merchantId))
    .where(eq(renewalLinks.token, token))
    .limit(1);
  return row;
}

export async function getRenewalLink(db: Db, id: string): Promise<RenewalLinkRow | undefined> {
  const [row] = await db.select().from(renewalLinks).where(eq(renewalLinks.id, id)).limit(1);
  return row;
}

/** The plan's OPEN link, if any (at most one: a partial unique index). */
export async function getOpenRenewalLink(db: Db, planId: string): Promise<RenewalLinkRow | undefined> {
  return firstRow(db, renewalLinks, and(eq(renewalLinks.planId, planId), eq(renewalLinks.status, 'OPEN')));
}

/** OPEN → `status`, only if still OPEN; undefined otherwise. */
export async function closeRenewalLink(db: Db, id: string, status: Exclude<RenewalLinkStatus, 'OPEN'>): Promise<RenewalLinkRow | undefined> {
  return updateInStatus(db, renewalLinks, id, 'OPEN', { status, nextStepAt: null });
}

/** Closes the plan's OPEN link, if any (pause: SUPERSEDED; cancel: CANCELLED); the caller holds the plan's lock. */
export async function closeOpenRenewalLinkOfPlan(db: Db, planId: string, status: Extract<RenewalLinkStatus, 'CANCELLED' | 'SUPERSEDED'>): Promise<void> {
  await db
    .update(renewalLinks)
    .set({ status, nextStepAt: null, updatedAt: sql`now()` })
    .where(and(eq(renewalLinks.planId, planId), eq(renewalLinks.status, 'OPEN')));
}

/**
 * A price change scheduled from `from` on (docs/billing.md#price-changes): the plan's OPEN link for
 * a period due then or later costs the new amount. The caller holds the plan's lock.
 */
export async function repriceOpenRenewalLink(db: Db, { planId, from, amount }: { planId: string; from: Date; amount: number }): Promise<void> {
  await db
    .update(renewalLinks)
    .set({ amount, updatedAt: sql`now()` })
    .where(and(eq(renewalLinks.planId, planId), eq(renewalLinks.status, 'OPEN'), gte(renewalLinks.period, from)));
}

/** Moves an OPEN link to its next step (a reminder sent, or a step put off). */
export async function advanceRenewalLink(db: Db, id: string, values: { remindersSent: number; nextStepAt: Date }): Promise<void> {
  await db
    .update(renewalLinks)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(renewalLinks.id, id), eq(renewalLinks.status, 'OPEN')));
}

/** OPEN links whose next step is due at `now`, oldest first (renewal_links_next_step_idx). */
export async function findRenewalLinkStepsDue(db: Db, { now, limit, merchantId }: { now: Date; limit: number; merchantId?: string }) {
  return db
    .select({ id: renewalLinks.id, planId: renewalLinks.planId })
    .from(renewalLinks)
    .where(and(eq(renewalLinks.status, 'OPEN'), lte(renewalLinks.nextStepAt, now), clockScope(renewalLinks.merchantId, merchantId)))
    .orderBy(asc(renewalLinks.nextStepAt), asc(renewalLinks.id))
    .limit(limit);
}

/**
 * ACTIVE plans collected by link, due by `horizon`, with no link yet for the period they are
 * collecting (nor any OPEN one): the candidates for a first e-mail. The caller decides which are
 * within their merchant's reminderDays (subscription_plans_link_due_idx).
 */
export async function findPlansAwaitingRenewalLink(
  db: Db,
  { horizon, limit, after, merchantId }: { horizon: Date; limit: number; after?: { nextChargeDate: Date; id: string }; merchantId?: string },
) {
  return db
    .select({
      plan: subscriptionPlans,
      reminderDays: merchants.reminderDays,
      graceDays: merchants.graceDays,
    })
    .from(subscriptionPlans)
    .innerJoin(merchants, eq(merchants.id, subscriptionPlans.merchantId))
    .where(
      and(
        eq(subscriptionPlans.status, 'ACTIVE'),
        eq(subscriptionPlans.renewalCollection, 'LINK'),
        lte(subscriptionPlans.nextChargeDate, horizon),
        clockScope(subscriptionPlans.merchantId, merchantId),
        notExists(
          db
            .select({ one: sql`1` })
            .from(renewalLinks)
            .where(
              and(
                eq(renewalLinks.planId, subscriptionPlans.id),
                or(eq(renewalLinks.status, 'OPEN'), eq(renewalLinks.period, subscriptionPlans.nextChargeDate)),
              ),
            ),
        ),
        afterDuePlan(after),
      ),
    )
    .orderBy(asc(subscriptionPlans.nextChargeDate), asc(subscriptionPlans.id))
    .limit(limit);
}

/** A merchant's OPEN links with their plans, soonest expiry first (the portal's list of plans awaiting payment). */
export async function listOpenRenewalLinks(db: Db, { merchantId, limit }: { merchantId: string; limit: number }) {
  return db
    .select({ link: renewalLinks, plan: subscriptionPlans })
    .from(renewalLinks)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, renewalLinks.planId))
    .where(and(eq(renewalLinks.merchantId, merchantId), eq(renewalLinks.status, 'OPEN')))
    .orderBy(asc(renewalLinks.expiresAt), asc(renewalLinks.id))
    .limit(limit);
}

/**
 * Card payments of renewal links approved after the link closed (docs/billing.md#late-payments),
 * still APPROVED: the settler voids them (transactions_one_renewal_link_approval finds them).
 */
export async function findLateCardPayments(db: Db, limit: number): Promise<TransactionRow[]> {
  const rows = await db
    .select({ txn: transactions })
    .from(transactions)
    .innerJoin(renewalLinks, eq(renewalLinks.id, transactions.renewalLinkId))
    .where(
      and(
        isNotNull(transactions.renewalLinkId),
        eq(transactions.status, 'APPROVED'),
        eq(transactions.paymentMethodType, 'CARD'),
        isNotNull(transactions.gatewayTransactionId),
        ne(renewalLinks.status, 'PAID'),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.txn);
}

/** The payment a link took (approved, or voided since), if any: one at most (transactions_one_renewal_link_approval). */
export async function getRenewalLinkApproval(db: Db, linkId: string): Promise<TransactionRow | undefined> {
  return firstRow(db, transactions, and(eq(transactions.renewalLinkId, linkId), inArray(transactions.status, ['APPROVED', 'VOIDED'])));
}
