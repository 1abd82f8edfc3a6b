'use client';

// The checkout's client form: the payment methods (card, Nequi, PSE) and what follows a payment
// (docs/checkout.md). It owns the page's `data-checkout-state` once rendered; the summary above it
// is server-rendered and passed in as children. Card checks are the same code the server runs
// (lib/payments/card). With Wompi the card is tokenized in the browser at Wompi and only the token
// reaches our server: its card inputs have no names and the form cannot submit before hydration,
// and every attempt fetches its own pair of single-use acceptance tokens. The sandbox takes the
// card fields, with or without JavaScript.

import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { FormCopy } from '@/lib/checkout/i18n';
import type { MethodsCopy } from '@/lib/checkout/methods-i18n';
import { type CardField, type CardInput, type CardRules, cardProblems, parseCard, WOMPI_MIN_HOLDER } from '@/lib/payments/card';
import { shapeCardInput } from './card-input';
import { type CheckoutState, CheckoutShell, type ShellCopy, StatusMessage, type Tone } from './checkout-shell';
import styles from './checkout.module.css';
import { MethodChoice, NequiFields, type PseField, PseFields, type PseValues, WompiConsent } from './method-fields';
import m from './methods.module.css';
import type { CheckoutProcessor, PaymentMethodChoice, PseBank } from '@/lib/checkout/processor-types';
import { freshConsent, tokenizeCard, tokenizeNequi } from './wompi-browser';

const FIELDS: CardField[] = ['cardNumber', 'cardExpiry', 'cardCvc', 'cardHolder'];
const POLL_MS = 2000;
/** Hydration as an external fact: false in the server's HTML, true once the page's code runs. */
const noSubscription = () => () => {};

/** A reply of the payment endpoints: a payment (200) or an error body; any of it may be missing. */
interface Reply {
  status: number;
  body: {
    subscriptionTransactionId?: string;
    /** The payment's status, or the plan's on the session endpoint. */
    status?: string;
    transactionId?: string | null;
    declineReason?: string;
    redirectUrl?: string;
    error?: { code?: string; details?: { path?: string }[] };
  };
  retryAfter: number | null;
}

export interface Outcome {
  tone: Tone;
  title?: string;
  text: string;
  /** The processor's id of the settled payment this outcome reports; shown to the customer once approved. */
  transactionId?: string;
}

type Focus = CardField | PseField | 'nequiPhone' | 'consent' | 'submit' | 'status';

const PHONE = /^3\d{9}$/;
const phoneDigits = (value: string) => value.replace(/[\s()-]/g, '').replace(/^\+?57(?=3\d{9}$)/, '');

async function call(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, { ...init, cache: 'no-store', headers: { Accept: 'application/json', ...init.headers } });
  const body = await res.json().catch(() => ({}));
  const retryAfter = Number(res.headers.get('Retry-After'));
  return { status: res.status, body, retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

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
  const { token, lang, shell, copy, initialHolder, action, initial, children, processor, methodsCopy: mc } = props;
  const [state, setState] = useState<CheckoutState>(props.resumePayment ? 'processing' : 'ready');
  const [outcome, setOutcome] = useState<Outcome>(props.resumePayment ? { tone: 'progress', ...copy.status.pending } : (initial?.outcome ?? { tone: 'info', ...copy.ready }));
  const [method, setMethod] = useState<PaymentMethodChoice>('CARD');
  const [values, setValues] = useState<CardInput>({ cardNumber: '', cardExpiry: '', cardCvc: '', cardHolder: initialHolder });
  const [nequiPhone, setNequiPhone] = useState(props.initialPhone);
  const [pse, setPse] = useState<PseValues>({ institutionCode: '', userType: 'PERSON', legalIdType: 'CC', legalId: '', fullName: initialHolder, phoneNumber: props.initialPhone });
  const [accepted, setAccepted] = useState({ endUser: false, personalData: false });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>(initial?.errors ?? {});
  const [focus, setFocus] = useState<{ target: Focus } | null>(null);
  // With Wompi nothing may be submitted before the page's code runs: it would post the card to us.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const wompi = processor.type === 'wompi' ? processor : null;
  const rules: CardRules = wompi ? { minHolder: WOMPI_MIN_HOLDER } : {};

  const inputs = useRef<Partial<Record<string, HTMLInputElement | HTMLSelectElement | null>>>({});
  const submit = useRef<HTMLButtonElement>(null);
  // Before hydration (or without JavaScript) the pay button submits the form as a plain POST to
  // `action`, which the server handles; once hydrated, onSubmit pays through the JSON endpoint.
  // Always method="post": a GET would put the card number in the URL and the browser's history.
  const status = useRef<HTMLDivElement>(null);
  const lifetime = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    lifetime.current = controller;
    // Back from the bank (PSE), or reopened while a payment is PENDING: show that payment settle.
    if (props.resumePayment) {
      void follow({ status: 200, body: { status: 'PENDING', subscriptionTransactionId: props.resumePayment }, retryAfter: null }, controller.signal).catch(() => {
        if (!controller.signal.aborted) finish('error', { tone: 'danger', ...copy.status.network }, 'submit');
      });
    }
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount
  }, []);

  // Focus moves after the render that enables or marks its target.
  useEffect(() => {
    if (!focus) return;
    const element = focus.target === 'submit' ? submit.current : focus.target === 'status' ? status.current : inputs.current[focus.target];
    element?.focus();
  }, [focus]);

  const processing = state === 'processing';
  const showForm = state === 'ready' || state === 'processing' || state === 'declined' || state === 'error';

  function change(field: CardField) {
    return (event: ChangeEvent<HTMLInputElement>) => {
      const value = shapeCardInput(field, event.target, values[field]);
      const next = { ...values, [field]: value };
      setValues(next);
      // A field marked in error is checked again as it is corrected; others wait for the submit.
      if (errors[field] && !cardProblems(next, undefined, rules)[field]) setErrors({ ...errors, [field]: undefined });
    };
  }

  function register(name: string, el: HTMLInputElement | HTMLSelectElement | null) {
    inputs.current[name] = el;
  }

  function chooseMethod(next: PaymentMethodChoice) {
    setMethod(next);
    setErrors({});
  }

  function finish(next: CheckoutState, result: Outcome, target: Focus) {
    setState(next);
    setOutcome(result);
    setFocus({ target });
  }

  function settle(reply: Reply) {
    const s = copy.status;
    const payment = reply.body;
    if (reply.status === 200) {
      const transactionId = payment.transactionId ?? undefined;
      if (payment.status === 'APPROVED') {
        finish('approved', { tone: 'success', title: s.approved.title, text: s.approved.text, transactionId }, 'status');
      } else if (payment.status === 'DECLINED') {
        const reason = payment.declineReason;
        const text =
          method === 'NEQUI' ? mc.nequi.declined : reason === 'insufficient_funds' || reason === 'card_not_supported' ? s.declined[reason] : s.declined.other;
        setValues((v) => ({ ...v, cardNumber: '', cardCvc: '' }));
        finish('declined', { tone: 'danger', title: s.declined.title, text, transactionId }, method === 'CARD' ? 'cardNumber' : 'submit');
      } else {
        finish('error', { tone: 'danger', ...s.error, transactionId }, 'submit');
      }
      return;
    }
    const code = reply.body.error?.code;
    if (code === 'invalid_request') {
      const marked = FIELDS.filter((f) => reply.body.error?.details?.some((d) => d.path === f));
      setErrors(Object.fromEntries(marked.map((f) => [f, copy.serverProblem[f]])));
      if (marked.length === 0 && method !== 'CARD') return finish('error', { tone: 'danger', ...s.error }, 'submit');
      finish('ready', { tone: 'info', ...copy.ready }, marked[0] ?? 'submit');
    } else if (code === 'session_expired') {
      finish('expired', { tone: 'warning', ...s.expired }, 'status');
    } else if (code === 'not_found') {
      finish('unavailable', { tone: 'warning', ...s.unavailable }, 'status');
    } else if (code === 'rate_limited') {
      const minutes = Math.max(1, Math.ceil((reply.retryAfter ?? 60) / 60));
      finish('error', { tone: 'warning', title: s.rateLimited.title, text: s.rateLimited.text.replace('{minutes}', String(minutes)) }, 'submit');
    } else {
      finish('error', { tone: 'danger', ...s.error }, 'submit');
    }
  }

  /** 409: paid already (by this customer in another tab, say), or another payment is under way. */
  async function explainConflict(signal: AbortSignal) {
    const s = copy.status;
    const session = await call(`/checkout/session/${token}`, { signal }).catch(() => null);
    const planStatus = session?.status === 200 ? session.body.status : undefined;
    if (planStatus === 'ACTIVE' || planStatus === 'COMPLETED') finish('paid', { tone: 'success', ...s.paid }, 'status');
    else if (planStatus === 'PAUSED' || planStatus === 'CANCELLED') finish('unavailable', { tone: 'warning', ...s.unavailable }, 'status');
    else finish('error', { tone: 'warning', ...s.inProgress }, 'submit');
  }

  /** Asks about a PENDING payment every 2 s until it settles; a PSE payment sends the payer to the bank. */
  async function follow(first: Reply, signal: AbortSignal) {
    let reply = first;
    const waiting = method === 'NEQUI' ? mc.nequi.waiting : copy.status.pending;
    while (reply.status === 200 && reply.body.status === 'PENDING' && reply.body.subscriptionTransactionId) {
      if (reply.body.redirectUrl) {
        setOutcome({ tone: 'progress', ...mc.pse.redirecting });
        window.location.assign(reply.body.redirectUrl);
        return;
      }
      setOutcome({ tone: 'progress', ...waiting });
      await sleep(POLL_MS, signal);
      const url = `/checkout/session/${token}/payments/${reply.body.subscriptionTransactionId}`;
      // A lost poll is not an answer: the charge is still under way, so keep asking.
      reply = await call(url, { signal }).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return reply;
      });
    }
    if (reply.status === 409) await explainConflict(signal);
    else settle(reply);
  }

  async function pay(body: Record<string, unknown>, signal: AbortSignal) {
    // The page's language goes along: the customer's e-mails are written in it.
    const reply = await call(`/checkout/session/${token}/payments?lang=${encodeURIComponent(lang)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    await follow(reply, signal);
  }

  /** A new pair of Wompi's single-use acceptance tokens for this attempt (none with the sandbox). */
  const consent = async (signal: AbortSignal) => (wompi ? freshConsent(wompi.apiUrl, wompi.publicKey, signal) : {});

  /** What goes to our server: never a card number or CVC with Wompi (tokenized at Wompi first). */
  async function bodyOf(signal: AbortSignal): Promise<Record<string, unknown> | null> {
    if (method === 'CARD') {
      if (!wompi) return { ...values };
      setOutcome({ tone: 'progress', title: copy.status.processing.title, text: mc.tokenizing });
      const card = parseCard(values, undefined, rules)!;
      const cardToken = await tokenizeCard(wompi.apiUrl, wompi.publicKey, { number: card.number, expMonth: card.expMonth, expYear: card.expYear, cvc: card.cvc, holder: card.holder }, signal);
      setValues((v) => ({ ...v, cardNumber: '', cardCvc: '' }));
      return { method: 'CARD', cardToken: cardToken.id, cardBrand: cardToken.brand, cardLast4: cardToken.last_four, ...(await consent(signal)) };
    }
    const phoneNumber = phoneDigits(method === 'NEQUI' ? nequiPhone : pse.phoneNumber);
    if (method === 'PSE') return { method: 'PSE', ...pse, phoneNumber, ...(await consent(signal)) };
    if (wompi && props.subscription) {
      // A Nequi subscription: the account is tokenized here and posted at once; the payer approves
      // it in the app, and our server goes on when Wompi says so (docs/processors.md#nequi-subscriptions).
      setOutcome({ tone: 'progress', ...mc.nequi.waiting });
      const nequi = await tokenizeNequi(wompi.apiUrl, wompi.publicKey, phoneNumber, signal);
      return { method: 'NEQUI', phoneNumber, nequiToken: nequi.id, ...(await consent(signal)) };
    }
    return { method: 'NEQUI', phoneNumber, ...(await consent(signal)) };
  }

  /** The current method's problems, by field (none: ready to pay). */
  function problemsNow(): Partial<Record<string, string>> {
    const found: Partial<Record<string, string>> = {};
    if (method === 'CARD') {
      const problems = cardProblems(values, undefined, rules);
      for (const f of FIELDS) if (problems[f]) found[f] = copy.problems[f][problems[f]!] ?? copy.serverProblem[f];
    } else if (method === 'NEQUI') {
      if (!PHONE.test(phoneDigits(nequiPhone))) found.phoneNumber = mc.nequi.phoneProblem;
    } else {
      if (!pse.institutionCode) found.institutionCode = mc.pse.problems.institutionCode;
      if (!/^[0-9A-Za-z-]{3,20}$/.test(pse.legalId.trim())) found.legalId = mc.pse.problems.legalId;
      if (!pse.fullName.trim()) found.fullName = mc.pse.problems.fullName;
      if (!PHONE.test(phoneDigits(pse.phoneNumber))) found.phoneNumber = mc.pse.problems.phoneNumber;
    }
    if (wompi && !(accepted.endUser && accepted.personalData)) found.consent = mc.consent.required;
    return found;
  }

  const focusOf = (name: string): Focus => (name === 'phoneNumber' && method === 'NEQUI' ? 'nequiPhone' : (name as Focus));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (processing) return;
    const problems = problemsNow();
    const invalid = Object.keys(problems);
    if (invalid.length > 0) {
      setErrors(problems);
      setFocus({ target: focusOf(invalid[0]!) });
      return;
    }
    setErrors({});
    setState('processing');
    setOutcome({ tone: 'progress', ...copy.status.processing });
    const signal = lifetime.current?.signal ?? new AbortController().signal;
    try {
      const body = await bodyOf(signal);
      if (body) await pay(body, signal);
    } catch {
      if (!signal.aborted) finish('error', { tone: 'danger', ...copy.status.network }, 'submit');
    }
  }

  function field(name: CardField, extra: { autoComplete: string; inputMode?: 'numeric'; maxLength: number; hint?: string }) {
    const error = errors[name];
    const describedBy = [extra.hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(' ');
    return (
      <div className={name === 'cardHolder' ? styles.field : `${styles.field} ${styles.numeric}`}>
        <label htmlFor={name}>{copy.labels[name]}</label>
        <input
          ref={(el) => {
            inputs.current[name] = el;
          }}
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
          onChange={change(name)}
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
      <StatusMessage ref={status} tone={outcome.tone} title={outcome.title}>
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
                <PseFields values={pse} onChange={(patch) => setPse((v) => ({ ...v, ...patch }))} banks={props.pseBanks} errors={errors} readOnly={processing} copy={mc} register={register} />
                {props.subscription ? <p className={styles.fine}>{mc.pse.subscription}</p> : null}
              </>
            )}
            {wompi ? (
              <WompiConsent documents={wompi.consent} accepted={accepted} onChange={setAccepted} errors={errors} copy={mc} disabled={processing} inputRef={(el) => register('consent', el)} />
            ) : method !== 'CARD' ? (
              <p className={m.sandbox}>{mc.sandboxData}</p>
            ) : null}
            <button
              ref={submit}
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
