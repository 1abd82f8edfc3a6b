// /manage/<token>: the customer's own page for a plan (docs/customers.md#the-manage-page). Reached
// from an expiring link the merchant made or an e-mail carried; an unknown, forged or expired
// token gets the not-found page, with no data. Works without JavaScript: plain forms. What it shows
// and offers is loaded by loadManagePage (lib/customers/manage-page.ts); this file is the layout.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { requestLang } from '@/app/pay/[token]/lang';
import { MANAGE_COPY } from '@/lib/customers/manage-i18n';
import { loadManagePage } from '@/lib/customers/manage-page';
import { WompiMethodForm } from '@/components/customers/wompi-method-form';
import { BuyerForm } from '@/components/checkout/buyer-form';
import { buyerOutcomeOf } from '@/lib/invoices/buyer';
import { ScrollTable } from '@/components/scroll-table';
import { checkoutCopy } from '@/lib/checkout/i18n';
import { methodsCopy } from '@/lib/checkout/methods-i18n';
import { fill, formatCop, formatLongDate } from '@/lib/i18n/format';
import { everyInterval } from '@/lib/i18n/interval';
import { LANG_TAG, type Lang, langOfTag } from '@/lib/i18n/locale';
import { listAmountOf } from '@/lib/calendar/schedule';
import { savedMethodType } from '@/lib/processors/processor';
import styles from '@/components/customers/manage.module.css';
import { firstParam } from '@/lib/search-params';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'ServicePay', robots: { index: false, follow: false } };

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ManagePage({ params, searchParams }: Props) {
  const { token } = await params;
  const query = await searchParams;
  const lang = await requestLang(query.lang);
  const c = MANAGE_COPY[lang];
  const page = await loadManagePage(await getDb(), token, {
    // A language the customer picked here (not the browser's guess) is theirs for the e-mails too.
    chosenLang: langOfTag(firstParam(query.lang) ?? ''),
    confirmCancel: firstParam(query.cancel) === 'confirm',
  });
  if (!page) notFound();
  const { plan, merchantName, processorType, charges, invoices, nextCharge: next, trial, interval, monthly, changeable, cancellable, buyer, endsAt, periodEnd, termEnd, chargedUntilEnd, confirming, wompi, sandboxForms } = page;
  const done = firstParam(query.done);
  const problem = firstParam(query.problem);
  const langQuery = lang === 'en' ? '?lang=en' : '';
  // Plain form posts to route handlers (lib/customers/manage-form.ts), the same with or without JavaScript.
  const hidden = <input type="hidden" name="lang" value={lang} />;
  const methodAction = `/manage/${token}/method`;
  return (
    <main className={styles.page} lang={LANG_TAG[lang]}>
      <p className={styles.language}>
        <a href={`/manage/${token}?lang=${lang === 'es' ? 'en' : 'es'}`} lang={lang === 'es' ? 'en' : 'es'}>
          {c.language}
        </a>
      </p>
      <h1>{c.title}</h1>
      <p className={styles.merchant}>{fill(c.with, { merchant: merchantName })}</p>
      {done && c.done[done] && (
        <p role="status" className={styles.ok}>
          {c.done[done]}
        </p>
      )}
      {problem && c.problems[problem] && (
        <p role="alert" className={styles.problem}>
          {c.problems[problem]}
        </p>
      )}
      <section className={styles.card} aria-labelledby="plan">
        <h2 id="plan">{plan.description}</h2>
        <dl className={styles.facts}>
          <dt>{monthly ? c.amount : c.amountEvery}</dt>
          <dd data-testid="manage-amount">{interval && !monthly ? `${formatCop(listAmountOf(plan))} ${everyInterval(interval, lang)}` : formatCop(listAmountOf(plan))}</dd>
          {plan.quantity !== 1 && (
            <>
              <dt>{c.seats}</dt>
              <dd data-testid="manage-seats">{fill(c.seatsValue, { quantity: plan.quantity, unit: formatCop(plan.amount) })}</dd>
            </>
          )}
          <dt>{c.status}</dt>
          <dd data-testid="manage-status">{c.statuses[plan.status]}</dd>
          {trial ? (
            // A free trial: until when, and the first charge it ends with (its date is the
            // retry's while that charge is being retried).
            <>
              <dt>{c.trial}</dt>
              <dd data-testid="manage-trial">{fill(trial.days === 1 ? c.trialOneDay : c.trialDays, { days: trial.days, date: formatLongDate(new Date(trial.endsAt), lang) })}</dd>
              <dt>{c.firstCharge}</dt>
              <dd data-testid="manage-first-charge">
                {fill(trial.firstCharge.discount > 0 ? c.firstChargeDiscounted : c.firstChargeOn, {
                  amount: formatCop(trial.firstCharge.amount),
                  discount: formatCop(trial.firstCharge.discount),
                  date: formatLongDate(new Date(next ?? trial.endsAt), lang),
                })}
              </dd>
            </>
          ) : (
            <>
              <dt>{c.nextCharge}</dt>
              <dd data-testid="manage-next-charge">{next ? formatLongDate(new Date(next), lang) : c.none}</dd>
            </>
          )}
          {plan.status === 'PAUSED' && plan.resumesAt && (
            <>
              <dt>{c.resumesOn}</dt>
              <dd data-testid="manage-resumes-on">{fill(c.resumesOnValue, { date: formatLongDate(plan.resumesAt, lang) })}</dd>
            </>
          )}
          {plan.billingDay !== null && (
            <>
              <dt>{c.billingDay}</dt>
              <dd data-testid="manage-billing-day">{fill(interval?.unit === 'year' ? c.billingDayYearly : c.billingDayValue, { day: plan.billingDay })}</dd>
            </>
          )}
          {termEnd !== null && plan.minimumPeriods !== null && (
            <>
              <dt>{c.term}</dt>
              <dd data-testid="manage-term">{fill(c.termValue, { periods: plan.minimumPeriods, date: formatLongDate(new Date(termEnd), lang) })}</dd>
            </>
          )}
          {endsAt !== null && (
            <>
              <dt>{c.endsOn}</dt>
              <dd data-testid="manage-ends-on">{formatLongDate(new Date(endsAt), lang)}</dd>
            </>
          )}
          {plan.paymentMethodToken && (
            <>
              <dt>{c.method}</dt>
              <dd>{c.methods[savedMethodType(plan.paymentMethodToken)]}</dd>
            </>
          )}
        </dl>
        {trial && plan.renewalFailures === 0 && <p data-testid="manage-trial-note">{fill(c.trialNote, { date: formatLongDate(new Date(trial.endsAt), lang) })}</p>}
        {(plan.status === 'ACTIVE' || plan.status === 'TRIALING') && plan.renewalFailures > 0 && next && (
          <p className={styles.problem} data-testid="manage-failing">
            {fill(c.failing, { date: formatLongDate(new Date(next), lang) })}
          </p>
        )}
      </section>
      <section className={styles.card} aria-labelledby="charges">
        <h2 id="charges">{c.charges}</h2>
        {charges.length === 0 ? (
          <p>{c.noCharges}</p>
        ) : (
          <ScrollTable
            labelledBy="charges"
            wrapClassName={styles.tableWrap}
            className={styles.table}
            head={[c.chargeDate, c.chargeAmount, c.chargeStatus, c.receipt]}
          >
            {charges.map((t) => (
              <tr key={t.id} data-testid="manage-charge">
                <td>{formatLongDate(t.chargeDate, lang)}</td>
                <td>{formatCop(t.amount)}</td>
                <td>{c.chargeStatuses[t.status]}</td>
                <td>
                  {t.status === 'APPROVED' ? (
                    <a href={`/manage/${token}/receipts/${t.id}${langQuery}`} download>
                      {fill(c.receiptLink, { date: formatLongDate(t.chargeDate, lang) })}
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </section>
      {invoices.length > 0 && (
        <section className={styles.card} aria-labelledby="invoices">
          <h2 id="invoices">{c.invoices}</h2>
          <ScrollTable labelledBy="invoices" wrapClassName={styles.tableWrap} className={styles.table} head={[c.chargeDate, c.invoiceKind, c.invoiceNumber, c.chargeAmount]}>
            {invoices.map((i) => (
              <tr key={i.id} data-testid="manage-invoice">
                <td>{formatLongDate(i.issuedAt, lang)}</td>
                <td>{c.invoiceKinds[i.kind]}</td>
                <td>
                  <a href={i.qrUrl} aria-label={`${c.invoiceDian}: ${i.number}`}>
                    {i.number}
                  </a>
                </td>
                <td>{formatCop(i.total)}</td>
              </tr>
            ))}
          </ScrollTable>
        </section>
      )}
      {buyer && (
        <BuyerForm lang={lang} action={`/manage/${token}/buyer`} current={buyer.current} outcome={buyerOutcomeOf(query)} context="manage" hidden={hidden} className={styles.card} />
      )}
      {changeable && (
        <section className={styles.card} aria-labelledby="replace">
          <h2 id="replace">{c.replaceTitle}</h2>
          {processorType === 'wompi' ? (
            wompi?.kind === 'ready' && wompi.processor.type === 'wompi' ? (
              <>
                <p>{c.replaceIntro}</p>
                <WompiMethodForm
                  action={methodAction}
                  lang={lang}
                  processor={wompi.processor}
                  initialPhone=""
                  copy={{ labels: { cardNumber: c.cardNumber, cardExpiry: c.cardExpiry, cardCvc: c.cardCvc, cardHolder: c.cardHolder }, nequiPhone: c.nequiPhone, save: c.save, saving: c.saving, cardProblem: c.problems.card!, shortHolder: checkoutCopy(lang).form.problems.cardHolder.short_holder!, declined: c.problems.declined!, network: c.network }}
                  methodsCopy={methodsCopy(lang, { merchantName, amount: listAmountOf(plan), modality: 'SUBSCRIPTION', interval })}
                />
              </>
            ) : (
              // Wompi did not answer: no card field may post to our server, so nothing to fill in.
              <p data-testid="manage-replace-unavailable">{c.problems.unavailable}</p>
            )
          ) : !sandboxForms ? (
            // Production takes no method through the sandbox: no card field may post to our server.
            <p data-testid="manage-replace-unavailable">{c.problems.unavailable}</p>
          ) : (
            <>
              <p>{c.replaceIntro}</p>
              <MethodForm open summary={c.cardTab} action={methodAction} lang={lang} method="CARD" submit={c.saveCard}>
                <label>
                  {c.cardNumber}
                  <input name="cardNumber" inputMode="numeric" autoComplete="cc-number" required />
                </label>
                <div className={styles.row}>
                  <label>
                    {c.cardExpiry}
                    <input name="cardExpiry" inputMode="numeric" autoComplete="cc-exp" placeholder="MM/AA" required />
                  </label>
                  <label>
                    {c.cardCvc}
                    <input name="cardCvc" inputMode="numeric" autoComplete="cc-csc" required />
                  </label>
                </div>
                <label>
                  {c.cardHolder}
                  <input name="cardHolder" autoComplete="cc-name" required />
                </label>
              </MethodForm>
              <MethodForm summary={c.nequiTab} action={methodAction} lang={lang} method="NEQUI" submit={c.saveNequi}>
                <label>
                  {c.nequiPhone}
                  <input name="phoneNumber" type="tel" inputMode="numeric" autoComplete="tel-national" required />
                </label>
              </MethodForm>
            </>
          )}
        </section>
      )}
      {cancellable && (
        <section className={styles.card} aria-labelledby="cancel">
          {endsAt !== null ? (
            // A cancellation at the end of the period is scheduled: the customer may still keep the plan.
            <>
              <h2 id="cancel">{fill(c.endingTitle, { date: formatLongDate(new Date(endsAt), lang) })}</h2>
              <p>{fill(chargedUntilEnd ? c.endingIntroTerm : c.endingIntro, { date: formatLongDate(new Date(endsAt), lang) })}</p>
              <form method="post" action={`/manage/${token}/cancel`} className={styles.actions}>
                {hidden}
                <input type="hidden" name="at" value="keep" />
                <button type="submit" data-testid="manage-keep">
                  {c.keepPlan}
                </button>
              </form>
            </>
          ) : confirming ? (
            <>
              <h2 id="cancel">{c.confirmTitle}</h2>
              <p>{fill(c.confirmIntro, { merchant: merchantName })}</p>
              <form method="post" action={`/manage/${token}/cancel`} className={styles.actions}>
                {hidden}
                <button type="submit" className={styles.danger}>
                  {c.confirm}
                </button>
                <a href={`/manage/${token}${langQuery}`}>{c.keep}</a>
              </form>
            </>
          ) : (
            <>
              <h2 id="cancel">{c.cancelTitle}</h2>
              {periodEnd !== null ? (
                // The end of the period first; cancelling at once stays one step further (none in a minimum term).
                <>
                  <p>{fill(termEnd !== null ? c.termIntro : trial ? c.periodEndIntroTrial : c.periodEndIntro, { date: formatLongDate(new Date(periodEnd), lang) })}</p>
                  <form method="post" action={`/manage/${token}/cancel`} className={styles.actions}>
                    {hidden}
                    <input type="hidden" name="at" value="period_end" />
                    <button type="submit" data-testid="manage-cancel-period-end">
                      {fill(termEnd !== null ? c.termEnd : c.periodEnd, { date: formatLongDate(new Date(periodEnd), lang) })}
                    </button>
                  </form>
                  {termEnd === null && (
                    <p>
                      <a href={`/manage/${token}?cancel=confirm${lang === 'en' ? '&lang=en' : ''}`}>{c.cancelNowInstead}</a>
                    </p>
                  )}
                </>
              ) : (
                <>
                  <p>{trial ? c.cancelIntroTrial : c.cancelIntro}</p>
                  <a className={styles.buttonLink} href={`/manage/${token}?cancel=confirm${lang === 'en' ? '&lang=en' : ''}`}>
                    {c.cancel}
                  </a>
                </>
              )}
            </>
          )}
        </section>
      )}
    </main>
  );
}

/** One way to replace the method (a card, a Nequi account): a fold with its own plain form. */
function MethodForm(props: { open?: boolean; summary: string; action: string; lang: Lang; method: 'CARD' | 'NEQUI'; submit: string; children: ReactNode }) {
  return (
    <details open={props.open} className={styles.method}>
      <summary>{props.summary}</summary>
      <form method="post" action={props.action} className={styles.form}>
        <input type="hidden" name="lang" value={props.lang} />
        <input type="hidden" name="method" value={props.method} />
        {props.children}
        <button type="submit">{props.submit}</button>
      </form>
    </details>
  );
}
