import Link from 'next/link';

/**
 * The links under a list paged newest first by a cursor (`before`, the last row's id): back to
 * the newest rows from a later page, on to older ones while there are more. `href` keeps the
 * list's filters and adds what it is given.
 */
export function Pager({
  href,
  paged,
  lastId,
  labels,
}: {
  href: (extra?: Record<string, string>) => string;
  /** This is a later page. */
  paged: boolean;
  /** The last row's id when more rows follow it. */
  lastId?: string;
  labels: { newest: string; older: string };
}) {
  return (
    <p className="pager">
      {paged && <Link href={href()}>{labels.newest}</Link>}
      {lastId && <Link href={href({ before: lastId })}>{labels.older}</Link>}
    </p>
  );
}
