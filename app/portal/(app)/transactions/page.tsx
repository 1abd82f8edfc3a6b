// /portal/transactions: every charge of the merchant's plans, newest first: search, status filter, pages and a CSV export;
// above them the late payments owed back (docs/billing.md#refund-due).
import { ActivityList } from '@/components/portal/activity-list';
import { RefundsDue } from '@/components/portal/refunds-due';
import { getDb } from '@/db/client';
import { loadTransactionsPage } from '@/lib/portal/activity';
import type { SearchParams } from '@/lib/portal/list-params';
import { portalLang, requireUser } from '@/lib/portal/request';
import { markRefundedAction } from '@/lib/portal/transactions/actions';

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const { filter, transactions, hasMore, refundsDue } = await loadTransactionsPage(await getDb(), merchantId, await searchParams);

  return (
    <>
      <h1>{t.activity.transactionsTitle}</h1>
      <RefundsDue refunds={refundsDue} lang={lang} markRefunded={markRefundedAction} />
      <ActivityList t={t} lang={lang} list="transactions" filter={filter} rows={transactions} hasMore={hasMore} />
    </>
  );
}
