import type { PlanStatus, TransactionStatus } from '@/db/schema';
import { formatCop } from '@/lib/i18n/format';
import type { Lang } from '@/lib/i18n/locale';
import { formatDateTime, type PortalCopy } from '@/lib/portal/i18n';
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

interface ActivityListProps<Row> {
  t: PortalCopy;
  /** The card's id and heading. */
  id: string;
  title: string;
  /** The page's path, and its CSV export's. */
  path: string;
  exportPath: string;
  statuses: readonly Status[];
  filter: { search?: string; status?: Status; before?: string };
  rows: Row[];
  hasMore: boolean;
  /** What the list says with no rows and no filters, and its link to older rows. */
  emptyText: string;
  older: string;
  columns: Column<Row>[];
}

/**
 * The plans' and the transactions' list: search and status filters with the CSV export, the
 * table (or what to do when it is empty), and the pager, newest first.
 */
export function ActivityList<Row extends ActivityRow>({ t, id, title, path, exportPath, statuses, filter, rows, hasMore, emptyText, older, columns }: ActivityListProps<Row>) {
  return (
    <>
      <ListFilters t={t} statuses={statuses} search={filter.search} status={filter.status} exportHref={`${exportPath}${filterQuery(filter)}`} />
      <TableCard
        id={id}
        title={title}
        empty={<EmptyList t={t} filtered={Boolean(filter.search || filter.status)} text={emptyText} clearHref={path} />}
        rows={rows}
        rowKey={(r) => r.id}
        columns={columns}
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
export function activityColumns<At extends string>(t: PortalCopy, lang: Lang, at: At): Column<ActivityRow & Record<At, Date>>[] {
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
