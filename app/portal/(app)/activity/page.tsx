// /portal/activity: the merchant's plans, newest first, filtered by status and external reference, in pages.
import Link from 'next/link';
import { getDb } from '@/db/client';
import { listPlans } from '@/db/queries/activity';
import { PLAN_STATUSES, type PlanStatus } from '@/db/schema';
import { formatCop } from '@/lib/i18n/format';
import { isId } from '@/lib/ids';
import { formatDateTime } from '@/lib/portal/i18n';
import { portalLang, requireUser } from '@/lib/portal/request';

const PAGE_SIZE = 20;

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

export default async function ActivityPage({ searchParams }: { searchParams: Search }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const a = t.activity;
  const query = await searchParams;
  const asked = one(query.status);
  const status = PLAN_STATUSES.includes(asked as PlanStatus) ? (asked as PlanStatus) : undefined;
  const externalReference = one(query.ref);
  const before = one(query.before);
  const { plans, hasMore } = await listPlans(
    await getDb(),
    merchantId,
    { status, externalReference, before: before && isId('sub', before) ? before : undefined },
    PAGE_SIZE,
  );
  const pageLink = (extra: Record<string, string>) => {
    const params = new URLSearchParams({ ...(status && { status }), ...(externalReference && { ref: externalReference }), ...extra });
    return `/portal/activity?${params}`;
  };

  return (
    <>
      <h1>{a.title}</h1>
      <form className="filters" role="search" aria-label={a.filter}>
        <label>
          {a.status}
          <select name="status" defaultValue={status ?? ''}>
            <option value="">{a.anyStatus}</option>
            {PLAN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          {a.reference}
          <input name="ref" defaultValue={externalReference ?? ''} />
        </label>
        <button type="submit">{a.filter}</button>
      </form>
      <section className="card" aria-labelledby="plans">
        <h2 id="plans">{a.plans}</h2>
        {plans.length === 0 ? (
          <p>{a.none}</p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="plans">
            <table>
              <thead>
                <tr>
                  <th scope="col">{a.plan}</th>
                  <th scope="col">{a.reference}</th>
                  <th scope="col">{a.amount}</th>
                  <th scope="col">{a.status}</th>
                  <th scope="col">{a.customer}</th>
                  <th scope="col">{a.created}</th>
                </tr>
              </thead>
              <tbody>
                {plans.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <Link href={`/portal/activity/plans/${p.id}`}>{p.description}</Link>
                    </td>
                    <td>
                      <code>{p.externalReference}</code>
                    </td>
                    <td>{formatCop(p.amount)}</td>
                    <td>{p.status}</td>
                    <td>{p.customerEmail}</td>
                    <td>{formatDateTime(p.createdAt, lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="pager">
          {before && <Link href={pageLink({})}>{a.newest}</Link>}
          {hasMore && <Link href={pageLink({ before: plans.at(-1)!.id })}>{a.older}</Link>}
        </p>
      </section>
    </>
  );
}
