'use client';

// Replacing a plan's payment method with Wompi on /manage/<token> (docs/customers.md): the card is
// tokenized in the browser at Wompi with the checkout's own code (components/checkout), a Nequi
// account is approved in the app, and only the token and both acceptance tokens are posted, as a
// plain form, to the page's route handler (lib/customers/manage-form.ts). The card inputs have no
// `name` and the button is enabled only once hydrated, so without JavaScript nothing can post a
// card number to us. Each attempt fetches its own pair of Wompi's single-use acceptance tokens,
// spent on the payment source.

import { type FormEvent, useEffect, useState } from 'react';
import { shapeCardInput } from '@/components/checkout/card-input';
import { MethodChoice, NequiFields, WompiConsent } from '@/components/checkout/method-fields';
import type { CheckoutProcessor, PaymentMethodChoice } from '@/lib/checkout/processor-types';
import { approvedNequiToken, freshConsent, tokenizeCard } from '@/components/checkout/wompi-browser';
import type { MethodsCopy } from '@/lib/checkout/methods-i18n';
import { type CardField, type CardInput, cardProblems, parseCard, WOMPI_MIN_HOLDER } from '@/lib/processors/card';
import styles from './manage.module.css';

type Wompi = Extract<CheckoutProcessor, { type: 'wompi' }>;

interface WompiMethodCopy {
  labels: Record<CardField, string>;
  nequiPhone: string;
  save: string;
  saving: string;
  cardProblem: string;
  /** A holder Wompi would refuse (under 5 characters). */
  shortHolder: string;
  declined: string;
  network: string;
}

const PHONE = /^3\d{9}$/;
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** Posts `fields` as an ordinary form (a navigation), as the page's forms without JavaScript do. */
function postForm(action: string, fields: URLSearchParams) {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = action;
  for (const [name, value] of fields) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

export function WompiMethodForm(props: { action: string; lang: string; processor: Wompi; initialPhone: string; copy: WompiMethodCopy; methodsCopy: MethodsCopy }) {
  const { processor, copy, methodsCopy: mc } = props;
  const [hydrated, setHydrated] = useState(false);
  const [method, setMethod] = useState<PaymentMethodChoice>('CARD');
  const [values, setValues] = useState<CardInput>({ cardNumber: '', cardExpiry: '', cardCvc: '', cardHolder: '' });
  const [phone, setPhone] = useState(props.initialPhone);
  const [accepted, setAccepted] = useState({ endUser: false, personalData: false });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Partial<Record<string, string>> = {};
    const rules = { minHolder: WOMPI_MIN_HOLDER };
    const card = method === 'CARD' ? parseCard(values, undefined, rules) : null;
    const problems = method === 'CARD' ? cardProblems(values, undefined, rules) : {};
    if (problems.cardHolder === 'short_holder') found.card = copy.shortHolder;
    else if (method === 'CARD' && !card) found.card = copy.cardProblem;
    if (method === 'NEQUI' && !PHONE.test(phone.replace(/\D/g, ''))) found.phoneNumber = mc.nequi.phoneProblem;
    if (!(accepted.endUser && accepted.personalData)) found.consent = mc.consent.required;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const signal = new AbortController().signal;
    const form = new URLSearchParams();
    form.set('lang', props.lang);
    form.set('method', method);
    try {
      if (card) {
        setBusy(mc.tokenizing);
        const cardToken = await tokenizeCard(processor.apiUrl, processor.publicKey, { number: card.number, expMonth: card.expMonth, expYear: card.expYear, cvc: card.cvc, holder: card.holder }, signal);
        setValues((v) => ({ ...v, cardNumber: '', cardCvc: '' }));
        form.set('cardToken', cardToken.id);
        form.set('cardBrand', cardToken.brand);
        form.set('cardLast4', cardToken.last_four);
      } else {
        const phoneNumber = phone.replace(/\D/g, '');
        setBusy(mc.nequi.waiting.text);
        const nequi = await approvedNequiToken(processor.apiUrl, processor.publicKey, phoneNumber, { signal, everyMs: 2000, sleep });
        if (nequi.status !== 'APPROVED') {
          setBusy(null);
          setErrors({ phoneNumber: copy.declined });
          return;
        }
        form.set('nequiToken', nequi.id);
        form.set('phoneNumber', phoneNumber);
      }
      const consent = await freshConsent(processor.apiUrl, processor.publicKey, signal);
      form.set('acceptanceToken', consent.acceptanceToken);
      form.set('personalDataToken', consent.personalDataToken);
      setBusy(copy.saving);
      // The route answers with a redirect back to the page, saying what happened.
      postForm(props.action, form);
    } catch {
      setBusy(null);
      setErrors({ submit: copy.network });
    }
  }

  const input = (name: CardField, extra: { autoComplete: string; inputMode?: 'numeric' }) => (
    <label>
      {copy.labels[name]}
      <input
        id={`wompi-${name}`}
        value={values[name]}
        onChange={(e) => setValues({ ...values, [name]: shapeCardInput(name, e.target, values[name]) })}
        readOnly={busy !== null}
        autoComplete={extra.autoComplete}
        inputMode={extra.inputMode}
        aria-invalid={errors.card ? true : undefined}
        aria-describedby={errors.card ? 'card-error' : undefined}
      />
    </label>
  );

  return (
    <>
      <noscript>
        <p className={styles.problem}>{mc.noScript}</p>
      </noscript>
      <MethodChoice methods={['CARD', 'NEQUI']} value={method} onChange={(next) => (setMethod(next), setErrors({}))} copy={mc} disabled={busy !== null} />
      <form className={styles.form} onSubmit={onSubmit} noValidate data-testid="manage-wompi-form">
        {method === 'CARD' ? (
          <>
            {input('cardNumber', { autoComplete: 'cc-number', inputMode: 'numeric' })}
            <div className={styles.row}>
              {input('cardExpiry', { autoComplete: 'cc-exp', inputMode: 'numeric' })}
              {input('cardCvc', { autoComplete: 'cc-csc', inputMode: 'numeric' })}
            </div>
            {input('cardHolder', { autoComplete: 'cc-name' })}
            {errors.card ? (
              <p id="card-error" className={styles.problem}>
                {errors.card}
              </p>
            ) : null}
            <p>{mc.viaWompi}</p>
          </>
        ) : (
          <NequiFields phone={phone} onChange={setPhone} errors={errors} readOnly={busy !== null} copy={mc} />
        )}
        <WompiConsent documents={processor.consent} accepted={accepted} onChange={setAccepted} errors={errors} copy={mc} disabled={busy !== null} />
        <p role="status">{busy ?? errors.submit ?? ''}</p>
        <button type="submit" disabled={!hydrated || busy !== null}>
          {busy !== null ? copy.saving : copy.save}
        </button>
      </form>
    </>
  );
}
