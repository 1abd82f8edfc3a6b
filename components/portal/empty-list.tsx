import type { PortalCopy } from '@/lib/portal/i18n';

/**
 * What an empty list says to do next (docs/portal.md#layout): with filters on, how to find more
 * and a link that clears them; with none, how rows come to exist and where the API is explained.
 */
export function EmptyList({ t, filtered, text, clearHref }: { t: PortalCopy; filtered: boolean; text: string; clearHref: string }) {
  return (
    <div className="empty" data-testid="empty-list">
      <p>{filtered ? t.empty.filtered : text}</p>
      <p>{filtered ? <a href={clearHref}>{t.empty.clear}</a> : <a href="/docs">{t.empty.docs}</a>}</p>
    </div>
  );
}
