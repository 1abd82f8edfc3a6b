import type { Db } from '@/db/client';
import { openUsageUnits } from '@/db/queries/usage';
import { listPlans, listPlanTransactions, listRefundsDue, listTransactions } from '@/db/queries/activity';
import { listPlanEmails } from '@/db/queries/emails';
import { manageLinkUse } from '@/db/queries/manage-links';
import { getPlanForMerchant } from '@/db/queries/plans';
import { getEventForMerchant, listPlanEvents } from '@/db/queries/webhooks';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { findOwned } from '@/lib/api/ownership';
import { isRefundDue } from '@/lib/settlement/refunds';
import { planFilterOf, type SearchParams, transactionFilterOf } from './list-params';

// The activity pages' data (docs/portal.md#activity-and-transactions), scoped to the signed-in merchant.

const PAGE_SIZE = 20;

/** One of the merchant's webhook events with its attempts: 404 unknown, 403 another merchant's. */
export function findMerchantEvent(db: Db, merchantId: string, eventId: string) {
  return findOwned(db, 'evt', eventId, () => getEventForMerchant(db, { merchantId, eventId }));
}

/** /portal/activity: a page of the merchant's plans under the query string's filters. */
export async function loadActivityPage(db: Db, merchantId: string, params: SearchParams) {
  const filter = planFilterOf(params);
  return { filter, ...(await listPlans(db, merchantId, filter, PAGE_SIZE)) };
}

/** /portal/transactions: a page of the merchant's charges under the query string's filters. */
export async function loadTransactionsPage(db: Db, merchantId: string, params: SearchParams) {
  const filter = transactionFilterOf(params);
  const [page, refundsDue] = await Promise.all([listTransactions(db, merchantId, filter, PAGE_SIZE), listRefundsDue(db, merchantId)]);
  return { filter, ...page, refundsDue };
}

/** /portal/activity/plans/<id>: the plan (404, 403), its charges (and those owed back), events, e-mails and manage links. */
export async function loadPlanPage(db: Db, merchantId: string, planId: string) {
  const plan = await findMerchantPlan(db, planId, () => getPlanForMerchant(db, { merchantId, planId }));
  const [transactions, events, emails, manageLinks, usageUnits] = await Promise.all([
    listPlanTransactions(db, { merchantId, planId }),
    listPlanEvents(db, merchantId, planId),
    listPlanEmails(db, { merchantId, planId }),
    manageLinkUse(db, planId),
    // A metered plan's current period: the units reported and not billed yet (docs/billing.md#metered-usage).
    plan.usageUnitAmount !== null ? openUsageUnits(db, planId) : Promise.resolve(null),
  ]);
  return { plan, transactions, refundsDue: transactions.filter(isRefundDue), events, usageUnits, customerSide: { emails, manageLinks } };
}

export type CustomerSideData = Awaited<ReturnType<typeof loadPlanPage>>['customerSide'];
