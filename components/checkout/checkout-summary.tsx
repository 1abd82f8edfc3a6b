import { checkoutCopy, fill, formatCop, formatExpiry, formatPhone, type Lang, periodAmount, trialFirstCharge } from '@/lib/checkout/i18n';
import { isMonthly } from '@/lib/calendar/interval';
import type { CheckoutPageSession } from '@/lib/checkout/session';
import { everyInterval, trialOffer } from '@/lib/i18n/interval';
import { formatLongDate } from '@/lib/i18n/format';
import styles from './checkout.module.css';
import { BuyerForm, type BuyerFormProps } from './buyer-form';
import { DiscountLines, type PromotionForm, PromotionCodeForm } from './checkout-discount';

// What is being paid, to whom, and for whom: everything the merchant's link already says, shown
// so the customer never retypes it (docs/checkout.md#hosted-page). Rendered on the server only.

/**
 * `note` replaces the link's validity line (a renewal link says what period it pays, and until
 * when). With a coupon the price is what is paid today (with a trial ahead, its first charge), the coupon's lines below it; `promotion`
 * (a payable link that takes codes) adds the code form; `buyer` (a merchant that invoices, before the
 * first payment) the "Factura a nombre de…" form.
 */
export function CheckoutSummary(props: { session: CheckoutPageSession; lang: Lang; showExpiry: boolean; note?: string; promotion?: PromotionForm; buyer?: BuyerFormProps | null }) {
  const { session, lang } = props;
  const copy = checkoutCopy(lang);
  // A free trial not yet started (docs/billing.md#trials): nothing is charged today.
  const trialAhead = Boolean(session.trial) && session.status === 'PENDING_ACTIVATION';
  // Its setup fee is all that is charged today (docs/billing.md#setup-fee).
  const feeToday = trialAhead && session.setupFee ? session.setupFee : null;
  const discount = feeToday && session.discount ? { ...session.discount, amountDue: trialFirstCharge(session) } : session.discount;
  const period = isMonthly(session.interval) ? copy.perMonth : everyInterval(session.interval, lang);
  return (
    <section className={styles.summary} aria-labelledby="checkout-plan">
      <p className={styles.merchant}>
        {copy.payTo} <strong>{session.merchantName}</strong>
      </p>
      <h1 id="checkout-plan" className={styles.plan}>
        {session.planName}
      </h1>
      <p className={styles.price}>
        <span className={styles.amount}>{formatCop(feeToday ?? discount?.amountDue ?? session.amount)}</span>
        <abbr className={styles.currency} title={copy.currencyNote}>
          COP
        </abbr>
        {feeToday ? (
          <span className={styles.period}>{copy.coupon.dueToday}</span>
        ) : session.discount ? (
          // With a free trial nothing is paid today: the discounted amount is the first charge, at its end.
          <span className={styles.period}>{trialAhead ? copy.coupon.firstCharge : copy.coupon.dueToday}</span>
        ) : session.firstPeriod || (session.setupFee && !trialAhead) ? (
          <span className={styles.period}>{copy.coupon.dueToday}</span>
        ) : session.modality === 'SUBSCRIPTION' ? (
          <span className={styles.period}>{period}</span>
        ) : null}
      </p>
      {session.firstPeriod ? (
        // A billing day (docs/billing.md#billing-day): today's charge covers the days until it.
        <p className={styles.fine} data-testid="checkout-first-period">
          {fill(copy.firstPeriod, {
            date: formatLongDate(session.firstPeriod.endsAt, lang),
            amount: formatCop(session.firstPeriod.fullAmount),
            period,
          })}
        </p>
      ) : null}
      {session.setupFee && !trialAhead ? (
        // A setup fee (docs/billing.md#setup-fee): today's charge carries it once; each period is charged without it.
        <p className={styles.fine} data-testid="checkout-setup-fee">
          {fill(copy.setupFee, { fee: formatCop(session.setupFee), amount: formatCop(periodAmount(session)), period })}
        </p>
      ) : null}
      {session.trial && trialAhead ? (
        // A free trial not yet started (docs/billing.md#trials): what is free, what follows, and that nothing is charged today.
        <>
          <p className={styles.badge}>{trialOffer(session.trial.days, formatCop(periodAmount(session)), session.interval, lang)}</p>
          <p className={styles.fine} data-testid="checkout-trial-note">
            {feeToday ? fill(copy.trial.noteWithFee, { fee: formatCop(feeToday), amount: formatCop(trialFirstCharge(session)) }) : copy.trial.note}
          </p>
        </>
      ) : null}
      {discount ? <DiscountLines session={session} lang={lang} discount={discount} trialAhead={trialAhead} /> : null}
      {props.promotion && session.promotionCodes ? <PromotionCodeForm lang={lang} form={props.promotion} /> : null}
      <p className={styles.badge}>
        {session.modality === 'SUBSCRIPTION' && !isMonthly(session.interval) ? copy.subscription : copy.modality[session.modality]}
      </p>
      <h2 className={styles.customerTitle}>{copy.customer}</h2>
      <dl className={styles.customer}>
        {session.customer.firstName ? (
          <div>
            <dt>{copy.name}</dt>
            <dd>{session.customer.firstName}</dd>
          </div>
        ) : null}
        <div>
          <dt>{copy.phone}</dt>
          <dd>{formatPhone(session.customer.phone)}</dd>
        </div>
      </dl>
      {props.note ? <p className={styles.fine}>{props.note}</p> : null}
      {props.showExpiry && !props.note ? (
        <p className={styles.fine}>{fill(copy.validUntil, { date: formatExpiry(session.expiresAt, lang) })}</p>
      ) : null}
      {props.buyer ? <BuyerForm {...props.buyer} /> : null}
    </section>
  );
}
