import type { PlanStatus, TransactionStatus } from '@/db/schema';
import type { PortalCopy } from '@/lib/portal/i18n';
import { SelectField } from './select-field';

export interface FilterBarLabels {
  filter: string;
  search: string;
  searchHint?: string;
  choice: string;
  any: string;
  exportCsv: string;
}

/** A list's search box, one select filter and the CSV export of what it shows (a plain GET form). */
export function FilterBar({
  labels,
  name,
  choices,
  search,
  chosen,
  exportHref,
}: {
  labels: FilterBarLabels;
  name: string;
  choices: readonly { value: string; label: string }[];
  search?: string;
  chosen?: string;
  exportHref: string;
}) {
  return (
    <div className="toolbar">
      <form className="filters inline" role="search" aria-label={labels.filter}>
        <label>
          {labels.search}
          <input name="q" type="search" defaultValue={search ?? ''} aria-describedby={labels.searchHint ? 'search-hint' : undefined} spellCheck={false} />
        </label>
        <SelectField label={labels.choice} name={name} defaultValue={chosen ?? ''} any={labels.any} options={choices} />
        <button type="submit">{labels.filter}</button>
        {labels.searchHint && (
          <p id="search-hint" className="hint">
            {labels.searchHint}
          </p>
        )}
      </form>
      <a href={exportHref} download>
        {labels.exportCsv}
      </a>
    </div>
  );
}

/** The plans' and transactions' FilterBar: search and status. */
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
    <FilterBar
      labels={{ filter: a.filter, search: a.search, searchHint: a.searchHint, choice: a.status, any: a.anyStatus, exportCsv: a.exportCsv }}
      name="status"
      choices={statuses.map((s) => ({ value: s, label: t.statuses[s] }))}
      search={search}
      chosen={status}
      exportHref={exportHref}
    />
  );
}
