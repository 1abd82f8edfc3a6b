import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { renewalLinks, subscriptionPlans, transactions } from '../schema';
import type { RenewalLinkRow } from './renewal-links';
import type { TransactionRow } from './transactions';

// What a renewal reads under its plan's lock (lib/billing/renewals.ts), in one statement: the plan's
// PENDING transaction, its open renewal link and the card its saved token stands for. Read after the
// lock is taken, never in the locking statement, so it sees whatever committed before the lock.
// Prepared (docs/performance.md#a-renewals-statements-prepared).

/** The columns of `table` as selected through the subquery `sq`: the subquery's row, null when it has none. */
function rowOf<T extends typeof transactions | typeof renewalLinks>(table: T, sq: Record<string, unknown>): T['_']['columns'] {
  return Object.fromEntries(Object.keys(getTableColumns(table)).map((key) => [key, sq[key]])) as T['_']['columns'];
}

export interface RenewalFacts {
  pending: TransactionRow | null;
  openLink: RenewalLinkRow | null;
  savedCard: { cardBrand: string | null; cardLast4: string | null };
}

export async function renewalFactsOf(tx: Db, planId: string, token: string | null): Promise<RenewalFacts> {
  const pending = tx.select().from(transactions).where(and(eq(transactions.planId, planId), eq(transactions.status, 'PENDING'))).limit(1).as('pending');
  const link = tx.select().from(renewalLinks).where(and(eq(renewalLinks.planId, planId), eq(renewalLinks.status, 'OPEN'))).limit(1).as('open_link');
  // The brand and last four the card showed when it was saved: its newest charge with them and this token.
  const card = tx
    .select({ cardBrand: transactions.cardBrand, cardLast4: transactions.cardLast4 })
    .from(transactions)
    .where(and(eq(transactions.planId, planId), eq(transactions.paymentMethodToken, token ?? ''), sql`${transactions.cardLast4} is not null`))
    .orderBy(desc(transactions.id))
    .limit(1)
    .as('saved_card');
  const [row] = await tx
    .select({
      pending: rowOf(transactions, pending as unknown as Record<string, unknown>),
      openLink: rowOf(renewalLinks, link as unknown as Record<string, unknown>),
      cardBrand: card.cardBrand,
      cardLast4: card.cardLast4,
    })
    .from(subscriptionPlans)
    .leftJoin(pending, sql`true`)
    .leftJoin(link, sql`true`)
    .leftJoin(card, sql`true`)
    .where(eq(subscriptionPlans.id, planId))
    .prepare('renewal_facts')
    .execute();
  return {
    pending: (row?.pending as TransactionRow | null) ?? null,
    openLink: (row?.openLink as RenewalLinkRow | null) ?? null,
    savedCard: token ? { cardBrand: row?.cardBrand ?? null, cardLast4: row?.cardLast4 ?? null } : { cardBrand: null, cardLast4: null },
  };
}
