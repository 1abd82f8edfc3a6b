// /portal/transactions: every charge of the merchant's plans, newest first: search, status filter, pages and a CSV export;
// above them the late payments owed back (docs/billing.md#refund-due).
import Link from 'next/link';
import { ActivityList, activityColumns } from '@/components/portal/activity-list';
import { RefundsDue } from '@/components/portal/refunds-due';
import { getDb } from '@/db/client';
import { TRANSACTION_STATUSES } from '@/db/schema';
import { loadTransactionsPage } from '@/lib/portal/activity';
import type { SearchParams } from '@/lib/portal/list-params';
import { portalLang, requireUser } from '@/lib/portal/request';
import { markRefundedAction } from '@/lib/portal/transactions/actions';

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const a = t.activity;
  const { filter, transactions, hasMore, refundsDue } = await loadTransactionsPage(await getDb(), merchantId, await searchParams);

  return (
    <>
      <h1>{a.transactionsTitle}</h1>
      <RefundsDue refunds={refundsDue} lang={lang} markRefunded={markRefundedAction} />
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
