// /portal/activity: the merchant's plans, newest first: search, status filter, pages and a CSV export.
import Link from 'next/link';
import { TableCard } from '@/components/portal/data-table';
import { EmptyList } from '@/components/portal/empty-list';
import { ListFilters } from '@/components/portal/list-filters';
import { StatusBadge } from '@/components/portal/status-badge';
import { getDb } from '@/db/client';
import { PLAN_STATUSES } from '@/db/schema';
import { formatCop } from '@/lib/i18n/format';
import { formatDateTime } from '@/lib/portal/i18n';
import { loadActivityPage } from '@/lib/portal/activity';
import { filterQuery, type SearchParams } from '@/lib/portal/list-params';
import { portalLang, requireUser } from '@/lib/portal/request';

export default async function ActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const a = t.activity;
  const { filter, plans, hasMore } = await loadActivityPage(await getDb(), merchantId, await searchParams);

  return (
    <>
      <h1>{a.title}</h1>
      <ListFilters t={t} statuses={PLAN_STATUSES} search={filter.search} status={filter.status} exportHref={`/portal/export/plans${filterQuery(filter)}`} />
      <TableCard
        id="plans"
        title={a.plans}
        empty={<EmptyList t={t} filtered={Boolean(filter.search || filter.status)} text={t.empty.plans} clearHref="/portal/activity" />}
        rows={plans}
        rowKey={(p) => p.id}
        columns={[
          { label: a.plan, cell: (p) => <Link href={`/portal/activity/plans/${p.id}`}>{p.description}</Link> },
          { label: a.reference, cell: (p) => <code>{p.externalReference}</code> },
          { label: a.amount, numeric: true, cell: (p) => formatCop(p.amount) },
          { label: a.status, cell: (p) => <StatusBadge status={p.status} t={t} /> },
          { label: a.customer, cell: (p) => <span className="wrap">{p.customerEmail}</span> },
          { label: a.created, when: true, cell: (p) => formatDateTime(p.createdAt, lang) },
        ]}
      >
        <p className="pager">
          {filter.before && <Link href={`/portal/activity${filterQuery({ ...filter, before: undefined })}`}>{a.newest}</Link>}
          {hasMore && <Link href={`/portal/activity${filterQuery(filter, { before: plans.at(-1)!.id })}`}>{a.older}</Link>}
        </p>
      </TableCard>
    </>
  );
}
