'use client';

// The checkout's client form: the payment methods (card, Nequi, PSE) and what follows a payment
// (docs/checkout.md). It owns the page's `data-checkout-state` once rendered; the summary above it
// is server-rendered and passed in as children. Card checks are the same code the server runs
// (lib/processors/card). With Wompi the card is tokenized in the browser at Wompi and only the token
// reaches our server: its card inputs have no names and the form cannot submit before hydration,
// and every attempt fetches its own pair of single-use acceptance tokens. The sandbox takes the
// card fields, with or without JavaScript. This file is the markup; what the form does (submit,
// polling, the reply turned into a state) is useCheckoutPayment, and the request body and the
// checks before a submit are lib/checkout/payment-body.ts.

import type { ReactNode } from 'react';
import type { FormCopy } from '@/lib/checkout/i18n';
import type { MethodsCopy } from '@/lib/checkout/methods-i18n';
import type { CheckoutProcessor, PaymentMethodChoice, PseBank } from '@/lib/checkout/processor-types';
import type { CardField } from '@/lib/processors/card';
import { CheckoutShell, type ShellCopy, StatusMessage } from './checkout-shell';
import styles from './checkout.module.css';
import { MethodChoice, NequiFields, PseFields, WompiConsent } from './method-fields';
import m from './methods.module.css';
import { type Outcome, useCheckoutPayment } from './use-checkout-payment';

export interface CheckoutFormProps {
  token: string;
  lang: string;
  shell: ShellCopy;
  copy: FormCopy;
  initialHolder: string;
  /**
   * Where the form posts without JavaScript (POST /pay/<token>/card, docs/checkout.md), and what
   * the server sent it back with (a refused field, a limit): the form works before hydration.
   */
  action?: string;
  initial?: { outcome?: Outcome; errors?: Partial<Record<CardField, string>> };
  /** The server-rendered summary of the link. */
  children: ReactNode;
  methodsCopy: MethodsCopy;
  processor: CheckoutProcessor;
  methods: PaymentMethodChoice[];
  pseBanks: PseBank[];
  /** The customer's mobile from the link, for Nequi and PSE (10 digits). */
  initialPhone: string;
  /** A RECURRING plan: the method is saved for renewals. */
  subscription: boolean;
  /** A payment to show as it stands (the payer back from the bank, or a reload while PENDING). */
  resumePayment?: string;
}

export function CheckoutForm(props: CheckoutFormProps) {
  const { lang, shell, copy, action, children, methodsCopy: mc } = props;
  const { state, outcome, processing, hydrated, wompi, method, chooseMethod, values, changeCard, nequiPhone, setNequiPhone, pse, changePse, accepted, setAccepted, errors, register, submitRef, statusRef, onSubmit } =
    useCheckoutPayment(props);
  const showForm = state === 'ready' || state === 'processing' || state === 'declined' || state === 'error';

  function field(name: CardField, extra: { autoComplete: string; inputMode?: 'numeric'; maxLength: number; hint?: string }) {
    const error = errors[name];
    const describedBy = [extra.hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(' ');
    return (
      <div className={name === 'cardHolder' ? styles.field : `${styles.field} ${styles.numeric}`}>
        <label htmlFor={name}>{copy.labels[name]}</label>
        <input
          ref={(el) => register(name, el)}
          id={name}
          // With Wompi the card fields have no names: a form that posted before hydration would carry nothing.
          name={wompi ? undefined : name}
          type="text"
          required
          autoComplete={extra.autoComplete}
          inputMode={extra.inputMode}
          maxLength={extra.maxLength}
          placeholder={copy.placeholders[name] || undefined}
          spellCheck={false}
          autoCorrect="off"
          autoCapitalize={name === 'cardHolder' ? 'words' : 'off'}
          value={values[name]}
          onChange={changeCard(name)}
          readOnly={processing}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {extra.hint ? (
          <p id={`${name}-hint`} className={styles.hint}>
            {extra.hint}
          </p>
        ) : null}
        {error ? (
          <p id={`${name}-error`} className={styles.fieldError}>
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <CheckoutShell state={state} transactionId={outcome.transactionId} lang={lang} copy={shell}>
      {children}
      <StatusMessage ref={statusRef} tone={outcome.tone} title={outcome.title}>
        <p>{outcome.text}</p>
        {state === 'approved' && outcome.transactionId ? (
          <p>
            {copy.status.approved.transactionId}: <strong className={styles.reference}>{outcome.transactionId}</strong>
          </p>
        ) : null}
        {state === 'approved' ? <p>{copy.status.approved.close}</p> : null}
      </StatusMessage>
      {showForm ? (
        <>
          <MethodChoice methods={props.methods} value={method} onChange={chooseMethod} copy={mc} disabled={processing} />
          <form
            className={styles.form}
            onSubmit={onSubmit}
            // Before hydration (or without JavaScript) the pay button submits the form as a plain
            // POST to `action`, which the server handles; once hydrated, onSubmit pays through the
            // JSON endpoint. Always method="post": a GET would put the card number in the URL.
            // The sandbox posts to `action` without JavaScript; a Wompi form never posts anything.
            {...(wompi ? {} : { method: 'post', action })}
            noValidate
            aria-labelledby="method-heading"
          >
            <h2 id="method-heading" className={styles.formHeading}>
              {method === 'CARD' ? copy.heading : method === 'NEQUI' ? mc.nequi.heading : mc.pse.heading}
            </h2>
            {wompi ? (
              <noscript>
                <p className={styles.fieldError}>{mc.noScript}</p>
              </noscript>
            ) : null}
            {wompi && !hydrated ? (
              <p className={styles.fine} data-testid="wompi-loading">
                {mc.loading}
              </p>
            ) : null}
            {method === 'CARD' ? (
              <>
                {field('cardNumber', { autoComplete: 'cc-number', inputMode: 'numeric', maxLength: 23 })}
                <div className={styles.row}>
                  {field('cardExpiry', { autoComplete: 'cc-exp', inputMode: 'numeric', maxLength: 7 })}
                  {field('cardCvc', { autoComplete: 'cc-csc', inputMode: 'numeric', maxLength: 4 })}
                </div>
                {field('cardHolder', { autoComplete: 'cc-name', maxLength: 100, hint: copy.holderHint })}
                {wompi ? <p className={styles.fine}>{mc.viaWompi}</p> : null}
                <p className={styles.fine}>{copy.authorization}</p>
              </>
            ) : method === 'NEQUI' ? (
              <>
                <NequiFields phone={nequiPhone} onChange={setNequiPhone} errors={errors} readOnly={processing} copy={mc} inputRef={(el) => register('nequiPhone', el)} />
                <p className={styles.fine}>{mc.nequi.authorization}</p>
              </>
            ) : (
              <>
                <PseFields values={pse} onChange={changePse} banks={props.pseBanks} errors={errors} readOnly={processing} copy={mc} register={register} />
                {props.subscription ? <p className={styles.fine}>{mc.pse.subscription}</p> : null}
              </>
            )}
            {wompi ? (
              <WompiConsent documents={wompi.consent} accepted={accepted} onChange={setAccepted} errors={errors} copy={mc} disabled={processing} inputRef={(el) => register('consent', el)} />
            ) : method !== 'CARD' ? (
              <p className={m.sandbox}>{mc.sandboxData}</p>
            ) : null}
            <button
              ref={submitRef}
              type="submit"
              className={styles.pay}
              disabled={processing || (method === 'PSE' && props.pseBanks.length === 0) || (wompi !== null && !hydrated)}
              aria-busy={processing}
            >
              {processing ? <span className={styles.spinner} aria-hidden="true" /> : null}
              {processing ? copy.processing : method === 'CARD' ? copy.pay : method === 'NEQUI' ? mc.nequi.pay : mc.pse.pay}
            </button>
          </form>
        </>
      ) : null}
    </CheckoutShell>
  );
}
