// /portal/transactions: every charge of the merchant's plans, newest first: search, status filter, pages and a CSV export.
import Link from 'next/link';
import { TableCard } from '@/components/portal/data-table';
import { EmptyList } from '@/components/portal/empty-list';
import { ListFilters } from '@/components/portal/list-filters';
import { StatusBadge } from '@/components/portal/status-badge';
import { getDb } from '@/db/client';
import { TRANSACTION_STATUSES } from '@/db/schema';
import { formatCop } from '@/lib/i18n/format';
import { formatDateTime } from '@/lib/portal/i18n';
import { loadTransactionsPage } from '@/lib/portal/activity';
import { filterQuery, type SearchParams } from '@/lib/portal/list-params';
import { portalLang, requireUser } from '@/lib/portal/request';

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const a = t.activity;
  const { filter, transactions, hasMore } = await loadTransactionsPage(await getDb(), merchantId, await searchParams);

  return (
    <>
      <h1>{a.transactionsTitle}</h1>
      <ListFilters
        t={t}
        statuses={TRANSACTION_STATUSES}
        search={filter.search}
        status={filter.status}
        exportHref={`/portal/export/transactions${filterQuery(filter)}`}
      />
      <TableCard
        id="transactions"
        title={a.transactionsList}
        empty={<EmptyList t={t} filtered={Boolean(filter.search || filter.status)} text={t.empty.transactions} clearHref="/portal/transactions" />}
        rows={transactions}
        rowKey={(x) => x.id}
        columns={[
          { label: a.transaction, cell: (x) => <code>{x.id}</code> },
          { label: a.plan, cell: (x) => <Link href={`/portal/activity/plans/${x.planId}`}>{x.externalReference}</Link> },
          { label: a.kind, cell: (x) => a.kinds[x.kind] },
          { label: a.amount, numeric: true, cell: (x) => formatCop(x.amount) },
          { label: a.status, cell: (x) => <StatusBadge status={x.status} t={t} /> },
          { label: a.customer, cell: (x) => <span className="wrap">{x.customerEmail}</span> },
          { label: a.created, when: true, cell: (x) => formatDateTime(x.chargeDate, lang) },
        ]}
      >
        <p className="pager">
          {filter.before && <Link href={`/portal/transactions${filterQuery({ ...filter, before: undefined })}`}>{a.newest}</Link>}
          {hasMore && <Link href={`/portal/transactions${filterQuery(filter, { before: transactions.at(-1)!.id })}`}>{a.olderTransactions}</Link>}
        </p>
      </TableCard>
    </>
  );
}
