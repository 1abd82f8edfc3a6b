import Link from 'next/link';
import { PLAN_STATUSES, type PlanStatus, TRANSACTION_STATUSES, type TransactionStatus } from '@/db/schema';
import { formatCop } from '@/lib/i18n/format';
import type { Lang } from '@/lib/i18n/locale';
import { formatDateTime, type PortalCopy } from '@/lib/portal/i18n';
import type { loadActivityPage, loadTransactionsPage } from '@/lib/portal/activity';
import { filterQuery } from '@/lib/portal/list-params';
import { type Column, TableCard } from './data-table';
import { EmptyList } from './empty-list';
import { ListFilters } from './list-filters';
import { Pager } from './pager';
import { RefundDueFlag } from './refunds-due';
import { StatusBadge } from './status-badge';

type Status = PlanStatus | TransactionStatus;

interface ActivityRow {
  id: string;
  amount: number;
  status: Status;
  customerEmail: string;
  /** A late payment owed back (docs/billing.md#refund-due): flagged beside its status. */
  refundDue?: boolean;
}

type PlanListRow = Awaited<ReturnType<typeof loadActivityPage>>['plans'][number];
type TransactionListRow = Awaited<ReturnType<typeof loadTransactionsPage>>['transactions'][number];

/** The two lists, each with its page's path (its CSV export is /portal/export/<list>), statuses, words and first columns. */
const LISTS = {
  plans: {
    path: '/portal/activity',
    statuses: PLAN_STATUSES,
    words: (a: PortalCopy['activity']) => ({ title: a.plans, older: a.older }),
    columns: (t: PortalCopy, lang: Lang): Column<PlanListRow>[] => [
      { label: t.activity.plan, cell: (p) => <Link href={`/portal/activity/plans/${p.id}`}>{p.description}</Link> },
      { label: t.activity.reference, cell: (p) => <code>{p.externalReference}</code> },
      ...activityColumns(t, lang, 'createdAt'),
    ],
  },
  transactions: {
    path: '/portal/transactions',
    statuses: TRANSACTION_STATUSES,
    words: (a: PortalCopy['activity']) => ({ title: a.transactionsList, older: a.olderTransactions }),
    columns: (t: PortalCopy, lang: Lang): Column<TransactionListRow>[] => [
      { label: t.activity.transaction, cell: (x) => <code>{x.id}</code> },
      { label: t.activity.plan, cell: (x) => <Link href={`/portal/activity/plans/${x.planId}`}>{x.externalReference}</Link> },
      { label: t.activity.kind, cell: (x) => t.activity.kinds[x.kind] },
      ...activityColumns(t, lang, 'chargeDate'),
    ],
  },
};

type Rows = { plans: PlanListRow[]; transactions: TransactionListRow[] };

interface ActivityListProps<List extends keyof Rows> {
  t: PortalCopy;
  lang: Lang;
  /** Which list: its card's id too. */
  list: List;
  filter: { search?: string; status?: Status; before?: string };
  rows: Rows[List];
  hasMore: boolean;
}

/**
 * The plans' and the transactions' list: search and status filters with the CSV export, the
 * table (or what to do when it is empty), and the pager, newest first.
 */
export function ActivityList<List extends keyof Rows>({ t, lang, list, filter, rows, hasMore }: ActivityListProps<List>) {
  const { path, statuses, words, columns } = LISTS[list];
  const { title, older } = words(t.activity);
  return (
    <>
      <ListFilters t={t} statuses={statuses} search={filter.search} status={filter.status} exportHref={`/portal/export/${list}${filterQuery(filter)}`} />
      <TableCard
        id={list}
        title={title}
        empty={<EmptyList t={t} filtered={Boolean(filter.search || filter.status)} text={t.empty[list]} clearHref={path} />}
        rows={rows as ActivityRow[]}
        rowKey={(r) => r.id}
        columns={columns(t, lang) as Column<ActivityRow>[]}
      >
        <Pager
          href={(extra) => `${path}${filterQuery(filter, extra)}`}
          paged={Boolean(filter.before)}
          lastId={hasMore ? rows.at(-1)!.id : undefined}
          labels={{ newest: t.activity.newest, older }}
        />
      </TableCard>
    </>
  );
}

/** The last columns of both lists: the amount, the status, the customer and when (the row's `at`). */
function activityColumns<At extends string>(t: PortalCopy, lang: Lang, at: At): Column<ActivityRow & Record<At, Date>>[] {
  const a = t.activity;
  return [
    { label: a.amount, numeric: true, cell: (r) => formatCop(r.amount) },
    {
      label: a.status,
      cell: (r) => (
        <>
          <StatusBadge status={r.status} t={t} />
          {r.refundDue && (
            <>
              {' '}
              <RefundDueFlag lang={lang} />
            </>
          )}
        </>
      ),
    },
    { label: a.customer, cell: (r) => <span className="wrap">{r.customerEmail}</span> },
    { label: a.created, when: true, cell: (r) => formatDateTime(r[at], lang) },
  ];
}
