// /portal/settings/audit (docs/portal.md#audit-log): every change to the merchant, newest first: search, area filter, pages and a CSV export.
import Link from 'next/link';
import { TableCard } from '@/components/portal/data-table';
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
      <div className="toolbar">
        <form className="filters inline" role="search" aria-label={t.filter}>
          <label>
            {t.search}
            <input name="q" type="search" defaultValue={filter.search ?? ''} spellCheck={false} />
          </label>
          <label>
            {t.area}
            <select name="area" defaultValue={filter.area ?? ''}>
              <option value="">{t.anyArea}</option>
              {AUDIT_AREAS.map((a) => (
                <option key={a} value={a}>
                  {t.areas[a]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">{t.filter}</button>
        </form>
        <a href={`/portal/export/audit${auditQuery(filter)}`} download>
          {t.exportCsv}
        </a>
      </div>
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
        <p className="pager">
          {filter.before && <Link href={`/portal/settings/audit${auditQuery({ ...filter, before: undefined })}`}>{t.newest}</Link>}
          {hasMore && <Link href={`/portal/settings/audit${auditQuery(filter, { before: String(entries.at(-1)!.id) })}`}>{t.older}</Link>}
        </p>
      </TableCard>
    </>
  );
}
