// /portal/activity: the merchant's plans, newest first: search, status filter, pages and a CSV export.
import Link from 'next/link';
import { ActivityList, activityColumns } from '@/components/portal/activity-list';
import { getDb } from '@/db/client';
import { PLAN_STATUSES } from '@/db/schema';
import { loadActivityPage } from '@/lib/portal/activity';
import type { SearchParams } from '@/lib/portal/list-params';
import { portalLang, requireUser } from '@/lib/portal/request';

export default async function ActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const a = t.activity;
  const { filter, plans, hasMore } = await loadActivityPage(await getDb(), merchantId, await searchParams);

  return (
    <>
      <h1>{a.title}</h1>
      <ActivityList
        t={t}
        id="plans"
        title={a.plans}
        path="/portal/activity"
        exportPath="/portal/export/plans"
        statuses={PLAN_STATUSES}
        filter={filter}
        rows={plans}
        hasMore={hasMore}
        emptyText={t.empty.plans}
        older={a.older}
        columns={[
          { label: a.plan, cell: (p) => <Link href={`/portal/activity/plans/${p.id}`}>{p.description}</Link> },
          { label: a.reference, cell: (p) => <code>{p.externalReference}</code> },
          ...activityColumns(t, lang, 'createdAt'),
        ]}
      />
    </>
  );
}
