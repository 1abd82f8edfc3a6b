// /portal/activity/plans/<id>: one plan with its transactions and webhook events (403 for another merchant's).
import { Allowed } from '@/components/portal/allowed';
import { Card } from '@/components/portal/card';
import Link from 'next/link';
import { resendEventAction } from '@/lib/portal/webhooks/actions';
import { resendEmailAction } from '@/lib/portal/customers/actions';
import { cancelAtPeriodEndAction, changePriceAction } from '@/lib/portal/plans/actions';
import { markRefundedAction } from '@/lib/portal/transactions/actions';
import { ActionForm } from '@/components/portal/action-form';
import { CustomerSide } from '@/components/portal/customer-side';
import { RefundDueFlag, RefundsDue } from '@/components/portal/refunds-due';
import { TableCard } from '@/components/portal/data-table';
import { StatusBadge } from '@/components/portal/status-badge';
import { WebhookEvent } from '@/components/portal/webhook-event';
import { getDb } from '@/db/client';
import { fill, formatCop } from '@/lib/i18n/format';
import { intervalOf } from '@/lib/calendar/interval';
import { nextChargeDateOf } from '@/lib/calendar/schedule';
import { everyInterval, trialOffer } from '@/lib/i18n/interval';
import { loadPlanPage } from '@/lib/portal/activity';
import { formatDateTime } from '@/lib/portal/i18n';
import { ownedOrInterrupt, portalLang, requireUser } from '@/lib/portal/request';
import { isRefundDue } from '@/lib/settlement/refunds';

export default async function PlanPage({ params }: { params: Promise<{ planId: string }> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const { planId } = await params;
  const { plan, transactions, refundsDue, events, usageUnits, customerSide } = await ownedOrInterrupt(loadPlanPage(await getDb(), merchantId, planId));
  const a = t.activity;
  const interval = intervalOf(plan);
  const next = nextChargeDateOf(plan);
  return (
    <>
      <p>
        <Link href="/portal/activity">{a.back}</Link>
      </p>
      <h1>{plan.description}</h1>
      <dl className="facts">
        <dt>{a.plan}</dt>
        <dd>
          <code>{plan.id}</code>
        </dd>
        <dt>{a.reference}</dt>
        <dd>
          <code>{plan.externalReference}</code>
        </dd>
        <dt>{a.amount}</dt>
        <dd>{plan.quantity !== 1 ? fill(a.seatsAmount, { quantity: plan.quantity, unit: formatCop(plan.amount), total: formatCop(plan.amount * plan.quantity) }) : formatCop(plan.amount)}</dd>
        {/* Interval, trial and a scheduled price (docs/portal.md#activity-and-transactions). */}
        {interval && (
          <>
            <dt>{a.interval}</dt>
            <dd>{everyInterval(interval, lang)}</dd>
          </>
        )}
        {plan.trialDays && (
          <>
            <dt>{a.trial}</dt>
            <dd>
              {trialOffer(plan.trialDays, formatCop(plan.amount), interval, lang)} ·{' '}
              {plan.trialEndsAt ? fill(a.trialEnds, { date: formatDateTime(plan.trialEndsAt, lang) }) : a.trialNotStarted}
            </dd>
          </>
        )}
        {plan.scheduledAmount !== null && (
          <>
            <dt>{a.scheduledPrice}</dt>
            <dd>
              {plan.status === 'PAUSED'
                ? fill(a.scheduledAtCharge, { amount: formatCop(plan.scheduledAmount) })
                : fill(a.scheduledFrom, { amount: formatCop(plan.scheduledAmount), date: formatDateTime(plan.scheduledFrom!, lang) })}
            </dd>
          </>
        )}
        <dt>{a.status}</dt>
        <dd>
          <StatusBadge status={plan.status} t={t} />
        </dd>
        {next !== null && (
          <>
            <dt>{a.nextCharge}</dt>
            <dd>{formatDateTime(new Date(next), lang)}</dd>
          </>
        )}
        {plan.status === 'PAUSED' && plan.resumesAt && (
          <>
            <dt>{a.resumesOn}</dt>
            <dd data-testid="plan-resumes-on">{formatDateTime(plan.resumesAt, lang)}</dd>
          </>
        )}
        {plan.billingDay !== null && (
          <>
            <dt>{a.billingDay}</dt>
            <dd data-testid="plan-billing-day">{fill(a.billingDayValue, { day: plan.billingDay })}</dd>
          </>
        )}
        {plan.minimumPeriods !== null && (
          <>
            <dt>{a.term}</dt>
            <dd data-testid="plan-term">
              {plan.termEndsAt ? fill(a.termUntil, { periods: plan.minimumPeriods, date: formatDateTime(plan.termEndsAt, lang) }) : fill(a.termNotStarted, { periods: plan.minimumPeriods })}
            </dd>
          </>
        )}
        {plan.cancelAt && (plan.status === 'ACTIVE' || plan.status === 'TRIALING' || plan.status === 'PAUSED') && (
          <>
            <dt>{a.endsOn}</dt>
            <dd data-testid="plan-cancel-at">{formatDateTime(plan.cancelAt, lang)}</dd>
          </>
        )}
        {usageUnits !== null && (
          <>
            <dt>{a.usage}</dt>
            <dd data-testid="plan-usage">
              {fill(a.usageNow, {
                units: usageUnits,
                included: plan.usageIncludedUnits ?? 0,
                unit: formatCop(plan.usageUnitAmount ?? 0),
                amount: formatCop(Math.max(0, usageUnits - (plan.usageIncludedUnits ?? 0)) * (plan.usageUnitAmount ?? 0)),
              })}
            </dd>
          </>
        )}
        <dt>{a.customer}</dt>
        <dd>{plan.customerEmail}</dd>
      </dl>
      {plan.modality === 'RECURRING' && plan.status !== 'CANCELLED' && plan.status !== 'COMPLETED' && (
        // A price change, as PATCH /merchants/subscription-plans/{id} makes it (docs/billing.md#price-changes).
        <Card id="price-change" title={a.priceTitle} intro={a.priceIntro}>
          <p id="price-fields">{fill(a.priceFieldsHint, { quantity: plan.quantity })}</p>
          <Allowed to="business">
            <ActionForm action={changePriceAction} submit={a.priceSubmit} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
              <input type="hidden" name="planId" value={plan.id} />
              <label>
                {a.priceAmount}
                <input name="amount" inputMode="numeric" autoComplete="off" aria-describedby="price-fields" />
              </label>
              <label>
                {a.priceQuantity}
                <input name="quantity" inputMode="numeric" autoComplete="off" aria-describedby="price-fields" />
              </label>
              <fieldset>
                <legend>{a.priceEffective}</legend>
                <label>
                  <input type="radio" name="effective" value="next_charge" defaultChecked /> {a.priceNextCharge}
                </label>
                <label>
                  <input type="radio" name="effective" value="now" /> {a.priceNow}
                </label>
              </fieldset>
            </ActionForm>
          </Allowed>
        </Card>
      )}
      {(plan.status === 'ACTIVE' || plan.status === 'TRIALING') && plan.modality === 'RECURRING' && (
        // Cancel at the end of the period, or undo it (docs/billing.md#cancel-at-the-end-of-the-period).
        <Card id="period-end" title={a.endTitle}>
          <p>{plan.cancelAt ? fill(a.endScheduled, { date: formatDateTime(plan.cancelAt, lang) }) : a.endIntro}</p>
          <Allowed to="business">
            <ActionForm action={cancelAtPeriodEndAction} submit={plan.cancelAt ? a.endUndo : a.endSubmit} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
              <input type="hidden" name="planId" value={plan.id} />
              <input type="hidden" name="undo" value={plan.cancelAt ? 'true' : 'false'} />
            </ActionForm>
          </Allowed>
        </Card>
      )}
      <RefundsDue refunds={refundsDue} lang={lang} markRefunded={markRefundedAction} />
      <CustomerSide data={customerSide} lang={lang} resendEmail={resendEmailAction} />
      <TableCard
        id="transactions"
        title={a.transactions}
        empty={<p>{a.noTransactions}</p>}
        rows={transactions}
        rowKey={(txn) => txn.id}
        columns={[
          { label: a.transaction, cell: (txn) => <code>{txn.id}</code> },
          {
            label: a.status,
            cell: (txn) => (
              <>
                <StatusBadge status={txn.status} t={t} />
                {isRefundDue(txn) && (
                  <>
                    {' '}
                    <RefundDueFlag lang={lang} />
                  </>
                )}
              </>
            ),
          },
          { label: a.amount, numeric: true, cell: (txn) => formatCop(txn.amount) },
          { label: a.card, cell: (txn) => (txn.cardLast4 ? `${txn.cardBrand ?? ''} •••• ${txn.cardLast4}` : t.dash) },
          { label: a.created, cell: (txn) => formatDateTime(txn.chargeDate, lang) },
          {
            label: a.receipt,
            cell: (txn) =>
              txn.status === 'APPROVED' ? (
                <a href={`/portal/receipts/${txn.id}`} download>
                  {fill(a.receiptLink, { id: txn.id })}
                </a>
              ) : (
                t.dash
              ),
          },
        ]}
      />
      <Card id="events" title={a.events}>
        {events.length === 0 ? <p>{a.noEvents}</p> : events.map((e) => <WebhookEvent key={e.id} event={e} lang={lang} t={t} link resend={resendEventAction} />)}
      </Card>
    </>
  );
}
