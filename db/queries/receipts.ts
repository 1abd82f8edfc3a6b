import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { merchants, subscriptionPlans, transactions } from '../schema';

/**
 * What a receipt shows of an APPROVED transaction, its plan and its merchant, or undefined. Scoped
 * by the plan (the customer's manage link) or the merchant (the portal, the e-mail), so a receipt
 * of another plan or merchant is never found.
 */
export async function getReceiptRow(db: Db, scope: { transactionId: string } & ({ planId: string } | { merchantId: string })) {
  const [row] = await db
    .select({ txn: transactions, plan: subscriptionPlans, merchantName: merchants.name, merchantNit: merchants.nit })
    .from(transactions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, transactions.planId))
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .where(
      and(
        eq(transactions.id, scope.transactionId),
        eq(transactions.status, 'APPROVED'),
        'planId' in scope ? eq(transactions.planId, scope.planId) : eq(transactions.merchantId, scope.merchantId),
      ),
    )
    .limit(1);
  return row;
}
