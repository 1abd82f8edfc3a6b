// /portal/overview (docs/portal.md#overview): MRR, plans, churn, approval rate, revenue per day, renewals at risk and upcoming.
import Link from 'next/link';
import { DataTable, TableCard } from '@/components/portal/data-table';
import { RevenueChart } from '@/components/portal/revenue-chart';
import { getDb } from '@/db/client';
import type { RenewalRow } from '@/db/queries/overview';
import { fill, formatCop } from '@/lib/i18n/format';
import type { Lang } from '@/lib/i18n/locale';
import { formatDateTime } from '@/lib/portal/i18n';
import { getOverview, OVERVIEW_RANGES, type OverviewRange } from '@/lib/portal/overview';
import { portalLang, requireUser } from '@/lib/portal/request';

const percent = (rate: number | null, lang: Lang) =>
  rate === null ? '—' : new Intl.NumberFormat(lang === 'es' ? 'es-CO' : 'en-US', { style: 'percent', maximumFractionDigits: 1 }).format(rate);

export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ days?: string }> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const o = t.overview;
  const asked = Number((await searchParams).days);
  const days: OverviewRange = OVERVIEW_RANGES.includes(asked as OverviewRange) ? (asked as OverviewRange) : 30;
  const overview = await getOverview(await getDb(), merchantId, { days });
  const stats = [
    { id: 'mrr', label: o.mrr, value: formatCop(overview.mrr), hint: o.mrrHint },
    { id: 'active', label: o.activePlans, value: String(overview.activePlans) },
    { id: 'new', label: o.newThisMonth, value: String(overview.newThisMonth) },
    { id: 'cancelled', label: o.cancelledThisMonth, value: String(overview.cancelledThisMonth), hint: fill(o.churn, { rate: percent(overview.churnRate, lang) }) },
    { id: 'approval', label: o.approvalRate, value: percent(overview.approvalRate, lang), hint: fill(o.approvalHint, { days }) },
    { id: 'at-risk', label: o.atRisk, value: String(overview.atRisk) },
    // Trials are counted apart: not in MRR until their first charge (docs/billing.md#trials).
    { id: 'trialing', label: o.trialing, value: String(overview.trialingPlans), hint: fill(o.trialingHint, { amount: formatCop(overview.trialMrr) }) },
  ];
  const renewalColumns = (when: string) => [
    { label: t.activity.plan, cell: (r: RenewalRow) => <Link href={`/portal/activity/plans/${r.id}`}>{r.externalReference}</Link> },
    { label: t.activity.customer, cell: (r: RenewalRow) => <span className="wrap">{r.customerEmail}</span> },
    { label: t.activity.amount, numeric: true, cell: (r: RenewalRow) => formatCop(r.amount) },
    { label: when, when: true, cell: (r: RenewalRow) => formatDateTime(r.nextChargeDate, lang) },
  ];

  return (
    <>
      <h1>{o.title}</h1>
      <ul className="stats" aria-label={o.figures}>
        {stats.map((s) => (
          <li key={s.id} className="stat" data-testid={`stat-${s.id}`}>
            <p className="label">{s.label}</p>
            <p className="value">{s.value}</p>
            {s.hint && <p className="hint">{s.hint}</p>}
          </li>
        ))}
      </ul>
      <section className="card" aria-labelledby="revenue">
        <div className="toolbar">
          <h2 id="revenue">{o.revenue}</h2>
          <nav aria-label={o.range}>
            <p className="pager">
              {OVERVIEW_RANGES.map((range) => (
                <Link key={range} href={`/portal/overview?days=${range}`} aria-current={range === days ? 'page' : undefined}>
                  {fill(o.lastDays, { days: range })}
                </Link>
              ))}
            </p>
          </nav>
        </div>
        <p data-testid="revenue-total">{fill(o.revenueTotal, { days, total: formatCop(overview.revenue) })}</p>
        <RevenueChart days={overview.daily} label={`${o.revenue} · ${fill(o.lastDays, { days })}`} revenueLabel={o.revenue} loading={t.chartLoading} />
        <details>
          <summary>{o.dailyTable}</summary>
          <DataTable
            rows={overview.daily.filter((d) => d.approved + d.failed > 0)}
            rowKey={(d) => d.day}
            columns={[
              { label: o.day, when: true, cell: (d) => d.day },
              { label: o.revenue, numeric: true, cell: (d) => formatCop(d.revenue) },
              { label: o.approved, numeric: true, cell: (d) => d.approved },
              { label: o.failed, numeric: true, cell: (d) => d.failed },
            ]}
          />
        </details>
      </section>
      <div className="panels">
        <TableCard
          id="failing"
          title={o.failing}
          empty={<p className="empty">{o.noFailing}</p>}
          rows={overview.failing}
          rowKey={(r) => r.id}
          columns={[...renewalColumns(o.nextRetry), { label: o.failures, numeric: true, cell: (r: RenewalRow) => r.renewalFailures }]}
        />
        <TableCard id="upcoming" title={o.upcoming} empty={<p className="empty">{o.noUpcoming}</p>} rows={overview.upcoming} rowKey={(r) => r.id} columns={renewalColumns(o.dueOn)} />
      </div>
    </>
  );
}
