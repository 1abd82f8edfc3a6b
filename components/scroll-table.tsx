import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways inside its own box on a narrow screen, so the page never does: the
 * box is a labelled region a keyboard can reach and scroll. `head` are the column headers, if any;
 * the rows are the children. The manage page passes its module's classes; the portal's global
 * `.table-scroll` is the default (app/globals.css).
 */
export function ScrollTable({
  labelledBy,
  head,
  children,
  wrapClassName = 'table-scroll',
  className,
}: {
  labelledBy: string;
  head?: ReactNode[];
  children: ReactNode;
  wrapClassName?: string;
  className?: string;
}) {
  return (
    <div className={wrapClassName} tabIndex={0} role="region" aria-labelledby={labelledBy}>
      <table className={className}>
        {head && (
          <thead>
            <tr>
              {head.map((label, i) => (
                <th key={i} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
