import type { PlanStatus, TransactionStatus } from '@/db/schema';
import type { PortalCopy } from '@/lib/portal/i18n';

/** A list's search box, status filter and CSV export of what it shows (a plain GET form). */
export function ListFilters({
  t,
  statuses,
  search,
  status,
  exportHref,
}: {
  t: PortalCopy;
  statuses: readonly (PlanStatus | TransactionStatus)[];
  search?: string;
  status?: string;
  exportHref: string;
}) {
  const a = t.activity;
  return (
    <div className="toolbar">
      <form className="filters inline" role="search" aria-label={a.filter}>
        <label>
          {a.search}
          <input name="q" type="search" defaultValue={search ?? ''} aria-describedby="search-hint" spellCheck={false} />
        </label>
        <label>
          {a.status}
          <select name="status" defaultValue={status ?? ''}>
            <option value="">{a.anyStatus}</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {t.statuses[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{a.filter}</button>
        <p id="search-hint" className="hint">
          {a.searchHint}
        </p>
      </form>
      <a href={exportHref} download>
        {a.exportCsv}
      </a>
    </div>
  );
}
