// GET /portal/export/transactions?q=&status=: the signed-in merchant's transactions as CSV, with the list's filters.
// `amount` is what was charged; `listAmount` and `discount` (a coupon's, docs/billing.md#coupons) come last.
import { listTransactions } from '@/db/queries/activity';
import { CSV_EXPORT_LIMIT, toCsv } from '@/lib/portal/csv';
import { csvExport } from '@/lib/portal/csv-export';
import { transactionFilterOf } from '@/lib/portal/list-params';

export const GET = csvExport('transactions.csv', transactionFilterOf, async (db, merchantId, filter) => {
  const { transactions } = await listTransactions(db, merchantId, filter, CSV_EXPORT_LIMIT);
  return toCsv(
    ['subscriptionTransactionId', 'subscriptionPlanId', 'externalReference', 'customerEmail', 'kind', 'status', 'amount', 'currency', 'paymentMethodType', 'cardLast4', 'chargeDate', 'listAmount', 'discount'],
    transactions.map((x) => [
      x.id, x.planId, x.externalReference, x.customerEmail, x.kind, x.status, x.amount, 'COP', x.paymentMethodType, x.cardLast4, x.chargeDate.toISOString(),
      x.amount + x.discount, x.discount,
    ]),
  );
});
