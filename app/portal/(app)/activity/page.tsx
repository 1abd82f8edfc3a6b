// /portal/activity: the merchant's plans, newest first: search, status filter, pages and a CSV export.
import { ActivityList } from '@/components/portal/activity-list';
import { getDb } from '@/db/client';
import { loadActivityPage } from '@/lib/portal/activity';
import type { SearchParams } from '@/lib/portal/list-params';
import { portalLang, requireUser } from '@/lib/portal/request';

export default async function ActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const { filter, plans, hasMore } = await loadActivityPage(await getDb(), merchantId, await searchParams);

  return (
    <>
      <h1>{t.activity.title}</h1>
      <ActivityList t={t} lang={lang} list="plans" filter={filter} rows={plans} hasMore={hasMore} />
    </>
  );
}
