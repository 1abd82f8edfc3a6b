import type { ReactNode } from 'react';

export interface Column<Row> {
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
export interface DataTableProps<Row> {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  caption?: string;
  labelledBy?: string;
}

export function DataTable<Row>({ columns, rows, rowKey, caption, labelledBy }: DataTableProps<Row>) {
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

/**
 * A card that is one list: its heading (`id` names it for the table's region), the table, or
 * `empty` when there are no rows; then `children` (a pager).
 */
export function TableCard<Row>({ id, title, empty, children, ...table }: { id: string; title: string; empty: ReactNode; children?: ReactNode } & Omit<DataTableProps<Row>, 'labelledBy'>) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {table.rows.length === 0 ? empty : <DataTable labelledBy={id} {...table} />}
      {children}
    </section>
  );
}
