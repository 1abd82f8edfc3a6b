// /portal/settings/audit (docs/portal.md#audit-log): every change to the merchant, newest first: search, area filter, pages and a CSV export.
import Link from 'next/link';
import { TableCard } from '@/components/portal/data-table';
import { Pager } from '@/components/portal/pager';
import { FilterBar } from '@/components/portal/list-filters';
import { getDb } from '@/db/client';
import { auditCopy } from '@/lib/portal/audit-i18n';
import { AUDIT_AREAS, actionText, auditFilterOf, auditQuery, changeLines, listAuditPage } from '@/lib/portal/audit-page';
import { formatDateTime } from '@/lib/portal/i18n';
import type { SearchParams } from '@/lib/portal/list-params';
import { portalLang, requireUser } from '@/lib/portal/request';

const PAGE_SIZE = 50;

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireUser();
  const { lang } = await portalLang();
  const t = auditCopy(lang);
  const filter = auditFilterOf(await searchParams);
  const { entries, hasMore } = await listAuditPage(await getDb(), merchantId, filter, PAGE_SIZE);
  const filtered = Boolean(filter.search || filter.area);

  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      <FilterBar
        labels={{ filter: t.filter, search: t.search, choice: t.area, any: t.anyArea, exportCsv: t.exportCsv }}
        name="area"
        choices={AUDIT_AREAS.map((a) => ({ value: a, label: t.areas[a] }))}
        search={filter.search}
        chosen={filter.area}
        exportHref={`/portal/export/audit${auditQuery(filter)}`}
      />
      <TableCard
        id="audit-log"
        title={t.listTitle}
        empty={
          filtered ? (
            <p>
              {t.filtered} <Link href="/portal/settings/audit">{t.clear}</Link>
            </p>
          ) : (
            <p>{t.none}</p>
          )
        }
        rows={entries}
        rowKey={(e) => String(e.id)}
        columns={[
          { label: t.columns.when, when: true, cell: (e) => formatDateTime(e.createdAt, lang) },
          {
            label: t.columns.who,
            cell: (e) => (
              <span className="wrap">
                {e.actorLabel} <small>({t.actorTypes[e.actorType]})</small>
              </span>
            ),
          },
          { label: t.columns.ip, cell: (e) => e.ip ?? t.nothing },
          {
            label: t.columns.action,
            cell: (e) => (
              <>
                {actionText(e.action, t)}
                {e.target && (
                  <>
                    {' '}
                    <code>{e.target}</code>
                  </>
                )}
              </>
            ),
          },
          {
            label: t.columns.changes,
            cell: (e) => {
              const lines = changeLines(e.changes, t);
              return lines.length === 0 ? (
                t.nothing
              ) : (
                <ul className="plain">
                  {lines.map((line) => (
                    <li key={line} className="wrap">
                      {line}
                    </li>
                  ))}
                </ul>
              );
            },
          },
        ]}
      >
        <Pager
          href={(extra) => `/portal/settings/audit${auditQuery(filter, extra)}`}
          paged={Boolean(filter.before)}
          lastId={hasMore ? String(entries.at(-1)!.id) : undefined}
          labels={{ newest: t.newest, older: t.older }}
        />
      </TableCard>
    </>
  );
}
