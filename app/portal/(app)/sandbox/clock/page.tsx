// /portal/sandbox/clock (docs/portal.md#pruebas): the merchant's test clock, the form that moves
// it, what its last advance did and the plans it moved. Development and sandbox deployments only;
// every form is a server action, so all of it works without JavaScript.
import { Allowed } from '@/components/portal/allowed';
import { Card } from '@/components/portal/card';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionForm } from '@/components/portal/action-form';
import { TableCard } from '@/components/portal/data-table';
import { StatusBadge } from '@/components/portal/status-badge';
import type { PlanStatus } from '@/db/schema';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { formatDateTime } from '@/lib/portal/i18n';
import { portalLang, requireUser } from '@/lib/portal/request';
import { getMerchantTestClock, sandboxToolsShown } from '@/lib/portal/sandbox-page';
import { sandboxCopy } from '@/lib/portal/sandbox-i18n';
import { advanceClockAction, resetClockAction } from '@/lib/portal/sandbox/actions';

export const dynamic = 'force-dynamic';

export default async function TestClockPage() {
  if (!sandboxToolsShown()) notFound();
  const { merchantId } = await requireUser();
  const { lang, t: portal } = await portalLang();
  const t = sandboxCopy(lang);
  const clock = await getMerchantTestClock(await getDb(), merchantId);
  const at = (iso: string) => formatDateTime(new Date(iso), lang);
  const last = clock.lastAdvance;
  const copy = { label: portal.api.copy, copied: portal.api.copied };
  return (
    <>
      <h1>{t.clockTitle}</h1>
      <p>{t.clockIntro}</p>
      <p role="status" data-testid="clock-state">
        {clock.status === 'real_time' ? t.realTime : clock.status === 'advancing' ? t.advancing : fill(t.frozenAt, { at: at(clock.frozenTime!) })}
      </p>
      <Card id="clock-advance" title={t.advanceTitle}>
        <Allowed to="business">
          <ActionForm action={advanceClockAction} submit={t.advance} pending={t.pending} copy={copy}>
            <label>
              {t.advanceLabel}
              <input name="advanceTo" type="datetime-local" step={1} required aria-describedby="clock-advance-hint" />
            </label>
            <p id="clock-advance-hint" className="hint">
              {t.advanceHint}
            </p>
          </ActionForm>
        </Allowed>
      </Card>
      {last && (
        <>
          <Card id="clock-last" title={t.lastTitle}>
            <p>
              {fill(t.lastSummary, {
                from: at(last.from),
                to: at(last.to),
                steps: last.steps,
                approved: last.approved,
                declined: last.declined,
                links: last.renewalLinks.issued,
                notices: last.trialNotices,
              })}
            </p>
          </Card>
          <TableCard
            id="clock-moved"
            title={t.movedTitle}
            empty={<p>{t.noneMoved}</p>}
            rows={last.plans}
            rowKey={(p) => p.subscriptionPlanId}
            columns={[
              { label: t.columns.plan, cell: (p) => <Link href={`/portal/activity/plans/${p.subscriptionPlanId}`}>{p.subscriptionPlanId}</Link> },
              { label: t.columns.reference, cell: (p) => p.externalReference },
              { label: t.columns.status, cell: (p) => <StatusBadge status={p.status as PlanStatus} t={portal} /> },
              { label: t.columns.next, when: true, cell: (p) => (p.nextChargeDate ? at(p.nextChargeDate) : t.noDate) },
            ]}
          />
        </>
      )}
      {clock.status !== 'real_time' && (
        <Card id="clock-reset" title={t.resetTitle} intro={t.resetIntro}>
          <Allowed to="business">
            <ActionForm action={resetClockAction} submit={t.reset} pending={t.pending} copy={copy} />
          </Allowed>
        </Card>
      )}
    </>
  );
}
