// GET /portal/export/transactions?q=&status=: the signed-in merchant's transactions as CSV, with the list's filters.
// `amount` is what was charged; `listAmount` and `discount` (a coupon's, docs/billing.md#coupons) come last.
import { getDb } from '@/db/client';
import { listTransactions } from '@/db/queries/activity';
import { currentUser } from '@/lib/portal/accounts';
import { CSV_EXPORT_LIMIT, csvResponse, toCsv } from '@/lib/portal/csv';
import { transactionFilterOf } from '@/lib/portal/list-params';

export async function GET(req: Request) {
  const user = await currentUser(req.headers);
  if (!user) return new Response('Sign in first', { status: 401 });
  const filter = { ...transactionFilterOf(new URL(req.url).searchParams), before: undefined };
  const { transactions } = await listTransactions(await getDb(), user.merchantId, filter, CSV_EXPORT_LIMIT);
  const csv = toCsv(
    ['subscriptionTransactionId', 'subscriptionPlanId', 'externalReference', 'customerEmail', 'kind', 'status', 'amount', 'currency', 'paymentMethodType', 'cardLast4', 'chargeDate', 'listAmount', 'discount'],
    transactions.map((x) => [
      x.id, x.planId, x.externalReference, x.customerEmail, x.kind, x.status, x.amount, 'COP', x.paymentMethodType, x.cardLast4, x.chargeDate.toISOString(),
      x.amount + x.discount, x.discount,
    ]),
  );
  return csvResponse('transactions.csv', csv);
}
