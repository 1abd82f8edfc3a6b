import type { ReactNode } from 'react';
import type { TaxIdType } from '@/lib/einvoicing/draft';
import { formatTaxId } from '@/lib/einvoicing/tax-id';
import { checkoutCopy, fill, type Lang } from '@/lib/checkout/i18n';
import { BUYER_FIELDS, type BuyerField, type BuyerOutcome, buyerFieldOf, type PlanBuyer } from '@/lib/invoices/buyer';
import styles from './buyer.module.css';

// "Factura a nombre de…" (docs/einvoicing.md#the-buyer): who the invoices are made out to, a
// plain form that posts to the page's own route (/pay/<token>/buyer before paying,
// /manage/<token>/buyer for later invoices), so it works without JavaScript and in the widget's
// frame. The fields show what is saved; a refusal names its field and changes nothing. Rendered
// on the server only.

const TYPES: TaxIdType[] = ['CC', 'NIT', 'CE', 'PP'];
const OUTCOME_ID = 'buyer-outcome';

export interface BuyerFormProps {
  lang: Lang;
  action: string;
  /** What is saved now; null: the final consumer. */
  current: PlanBuyer | null;
  outcome: { outcome: BuyerOutcome; dv: number | null } | null;
  /** `checkout`: this payment's invoice, folded until asked for; `manage`: the next invoices, a section. */
  context: 'checkout' | 'manage';
  /** Hidden inputs the page's forms carry (the manage page's language). */
  hidden?: ReactNode;
  /** The page's own frame around a section (the manage page's card). */
  className?: string;
}

function outcomeText({ lang, current, outcome, context }: BuyerFormProps): { ok: boolean; text: string } | null {
  if (!outcome) return null;
  const c = checkoutCopy(lang).buyer;
  const later = context === 'manage';
  if (outcome.outcome === 'saved' && current) {
    return { ok: true, text: fill(later ? c.outcome.savedLater : c.outcome.saved, { name: current.legalName, type: current.taxId.type, number: formatTaxId(current.taxId) }) };
  }
  if (outcome.outcome === 'removed' && !current) return { ok: true, text: later ? c.outcome.removedLater : c.outcome.removed };
  if (outcome.outcome === 'saved' || outcome.outcome === 'removed') return null;
  return { ok: false, text: `${fill(c.outcome[outcome.outcome], { dv: outcome.dv ?? '' })} ${c.unchanged}` };
}

export function BuyerForm(props: BuyerFormProps) {
  const { lang, action, current, outcome, context } = props;
  const c = checkoutCopy(lang).buyer;
  const said = outcomeText(props);
  const invalid = outcome ? buyerFieldOf(outcome.outcome) : null;
  const described = (name: string, hint?: string) => [hint, invalid === name ? OUTCOME_ID : null].filter(Boolean).join(' ') || undefined;
  const text = (name: BuyerField, label: string, props: { autoComplete: string; maxLength: number; value: string; hint?: string }) => (
    <div className={styles.field}>
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="text"
        autoComplete={props.autoComplete}
        spellCheck={false}
        maxLength={props.maxLength}
        defaultValue={props.value}
        aria-invalid={invalid === name ? 'true' : undefined}
        aria-describedby={described(name, props.hint ? `${name}-hint` : undefined)}
      />
      {props.hint ? (
        <p id={`${name}-hint`} className={styles.hint}>
          {props.hint}
        </p>
      ) : null}
    </div>
  );
  const body = (
    <>
      {said ? (
        <p id={OUTCOME_ID} role={said.ok ? 'status' : 'alert'} className={said.ok ? styles.ok : styles.error} data-testid="buyer-outcome">
          {said.text}
        </p>
      ) : null}
      <p className={styles.text}>{context === 'manage' ? c.introManage : c.intro}</p>
      <p className={styles.text} data-testid="buyer-current">
        {current ? fill(c.current, { name: current.legalName, type: current.taxId.type, number: formatTaxId(current.taxId) }) : c.currentFinal}
      </p>
      <form method="post" action={action} className={styles.form} noValidate>
        {props.hidden}
        <div className={styles.field}>
          <label htmlFor={BUYER_FIELDS.type}>{c.type}</label>
          <select
            id={BUYER_FIELDS.type}
            name={BUYER_FIELDS.type}
            defaultValue={current?.taxId.type ?? 'NIT'}
            aria-invalid={invalid === BUYER_FIELDS.type ? 'true' : undefined}
            aria-describedby={described(BUYER_FIELDS.type)}
          >
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {c.types[t]}
              </option>
            ))}
          </select>
        </div>
        {text(BUYER_FIELDS.number, c.number, { autoComplete: 'off', maxLength: 30, value: current ? formatTaxId(current.taxId) : '', hint: c.numberHint })}
        {text(BUYER_FIELDS.legalName, c.legalName, { autoComplete: 'organization', maxLength: 200, value: current?.legalName ?? '' })}
        <div className={styles.actions}>
          <button type="submit" name="intent" value="save">
            {c.save}
          </button>
          {current ? (
            <button type="submit" name="intent" value="remove" className={styles.secondary}>
              {c.remove}
            </button>
          ) : null}
        </div>
      </form>
    </>
  );
  if (context === 'manage') {
    return (
      <section id="buyer" className={[styles.buyer, props.className].filter(Boolean).join(' ')} aria-labelledby="buyer-title">
        <h2 id="buyer-title" className={styles.title}>
          {c.title}
        </h2>
        {body}
      </section>
    );
  }
  return (
    <details id="buyer" className={`${styles.buyer} ${styles.fold}`} open={current !== null || outcome !== null}>
      <summary>{c.summary}</summary>
      {body}
    </details>
  );
}
