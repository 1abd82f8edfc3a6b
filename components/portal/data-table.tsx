import type { ReactNode } from 'react';

interface Column<Row> {
  /** The header, and the label each cell carries when the table turns into cards below 48rem. */
  label: string;
  cell: (row: Row) => ReactNode;
  /** Amounts and counts: right-aligned, never wrapped. */
  numeric?: boolean;
  /** Dates and times: never wrapped (every other cell wraps anywhere, app/globals.css). */
  when?: boolean;
  /** A header only screen readers hear (a column of buttons). */
  hideLabel?: boolean;
}

const classOf = (c: Column<never>) => (c.numeric ? 'num' : c.when ? 'when' : undefined);

/**
 * Every table of the portal: a plain table from 48rem up, a list of small cards below it
 * (app/globals.css, `.data-table`), so no column is clipped and the page never scrolls sideways.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  labelledBy,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  caption?: string;
  labelledBy?: string;
}) {
  return (
    <table className="data-table" aria-labelledby={labelledBy}>
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.label} scope="col" className={classOf(c)}>
              {c.hideLabel ? <span className="visually-hidden">{c.label}</span> : c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.label} data-label={c.hideLabel ? '' : c.label} className={classOf(c)}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
