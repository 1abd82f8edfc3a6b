import { checkoutCopy, fill, formatCop, type Lang } from '@/lib/checkout/i18n';
import type { PromotionOutcome } from '@/lib/checkout/promotion-form';
import type { CheckoutPageSession } from '@/lib/checkout/session';
import { perInterval } from '@/lib/i18n/interval';
import styles from './checkout.module.css';

// A coupon on the hosted page (docs/billing.md#coupons): the list price, the discount, what is
// paid today and what later; and, on a link that takes codes, the code form. A plain form posted
// to /pay/<token>/promotion-code, so it works without JavaScript. Rendered on the server only.

type Discount = NonNullable<CheckoutPageSession['discount']>;

/** What the customer pays after today, in words; null for a single payment. */
function laterText(session: CheckoutPageSession, discount: Discount, lang: Lang): string | null {
  if (session.modality !== 'SUBSCRIPTION') return null;
  const c = checkoutCopy(lang).coupon;
  const values = {
    amount: formatCop(discount.amountDue),
    list: formatCop(discount.listAmount),
    period: perInterval(session.interval, lang, checkoutCopy(lang).perMonth),
    count: (discount.discountedCharges ?? 0) - 1,
  };
  if (discount.discountedCharges === null) return fill(c.laterForever, values);
  if (discount.discountedCharges > 2) return fill(c.laterSome, values);
  if (discount.discountedCharges === 2) return fill(c.laterOne, values);
  return fill(c.laterFull, values);
}

/** `trialAhead`: a free trial not yet started, so the discounted amount is charged at its end, not today. */
export function DiscountLines({ session, lang, discount, trialAhead = false }: { session: CheckoutPageSession; lang: Lang; discount: Discount; trialAhead?: boolean }) {
  const c = checkoutCopy(lang).coupon;
  const later = laterText(session, discount, lang);
  const period = session.modality === 'SUBSCRIPTION' ? ` ${perInterval(session.interval, lang, checkoutCopy(lang).perMonth)}` : '';
  return (
    <dl className={styles.discount} data-testid="checkout-discount">
      <div>
        <dt>{c.listPrice}</dt>
        <dd>
          {formatCop(discount.listAmount)}
          {period}
        </dd>
      </div>
      <div>
        <dt>{discount.code ? fill(c.discountCode, { code: discount.code }) : c.discount}</dt>
        <dd>−{formatCop(discount.discount)}</dd>
      </div>
      <div className={styles.discountDue}>
        <dt>{trialAhead ? c.dueAtTrialEnd : c.dueNow}</dt>
        <dd>{formatCop(discount.amountDue)}</dd>
      </div>
      {later ? (
        <div>
          <dt>{c.later}</dt>
          <dd>{later}</dd>
        </div>
      ) : null}
    </dl>
  );
}

export interface PromotionForm {
  action: string;
  outcome: PromotionOutcome | null;
}

export function PromotionCodeForm({ lang, form }: { lang: Lang; form: PromotionForm }) {
  const c = checkoutCopy(lang).coupon;
  const refused = form.outcome !== null && form.outcome !== 'applied';
  return (
    <form method="post" action={form.action} className={styles.promotion} noValidate>
      <label htmlFor="promotionCode">{c.formLabel}</label>
      <div className={styles.promotionRow}>
        <input
          id="promotionCode"
          name="promotionCode"
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          aria-invalid={refused ? 'true' : undefined}
          aria-describedby={form.outcome ? 'promotion-outcome' : undefined}
        />
        <button type="submit">{c.apply}</button>
      </div>
      {form.outcome ? (
        <p id="promotion-outcome" role="status" className={refused ? styles.promotionError : styles.promotionOk}>
          {c.outcome[form.outcome]}
        </p>
      ) : null}
    </form>
  );
}
