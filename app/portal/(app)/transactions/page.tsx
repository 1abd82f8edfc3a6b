// /portal/transactions: every charge of the merchant's plans, newest first: search, status filter, pages and a CSV export.
import Link from 'next/link';
import { ActivityList, activityColumns } from '@/components/portal/activity-list';
import { getDb } from '@/db/client';
import { TRANSACTION_STATUSES } from '@/db/schema';
import { loadTransactionsPage } from '@/lib/portal/activity';
import type { SearchParams } from '@/lib/portal/list-params';
import { portalLang, requireUser } from '@/lib/portal/request';

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const a = t.activity;
  const { filter, transactions, hasMore } = await loadTransactionsPage(await getDb(), merchantId, await searchParams);

  return (
    <>
      <h1>{a.transactionsTitle}</h1>
      <ActivityList
        t={t}
        id="transactions"
        title={a.transactionsList}
        path="/portal/transactions"
        exportPath="/portal/export/transactions"
        statuses={TRANSACTION_STATUSES}
        filter={filter}
        rows={transactions}
        hasMore={hasMore}
        emptyText={t.empty.transactions}
        older={a.olderTransactions}
        columns={[
          { label: a.transaction, cell: (x) => <code>{x.id}</code> },
          { label: a.plan, cell: (x) => <Link href={`/portal/activity/plans/${x.planId}`}>{x.externalReference}</Link> },
          { label: a.kind, cell: (x) => a.kinds[x.kind] },
          ...activityColumns(t, lang, 'chargeDate'),
        ]}
      />
    </>
  );
}
