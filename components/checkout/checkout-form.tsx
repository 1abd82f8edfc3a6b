'use client';

// The checkout's only client component: the card form and what follows a payment (DECISIONS 14).
// It owns the page's `data-checkout-state` once rendered; the summary above it is server-rendered
// and passed in as children. Card checks are the same code the server runs (lib/payments/card).

import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { FormCopy } from '@/lib/checkout/i18n';
import { type CardField, type CardInput, cardProblems } from '@/lib/payments/card';
import { shapeCardInput } from './card-input';
import { type CheckoutState, CheckoutShell, type ShellCopy, StatusMessage, type Tone } from './checkout-shell';
import styles from './checkout.module.css';

const FIELDS: CardField[] = ['cardNumber', 'cardExpiry', 'cardCvc', 'cardHolder'];
const POLL_MS = 2000;

/** A reply of the payment endpoints: a payment (200) or an error body; any of it may be missing. */
interface Reply {
  status: number;
  body: {
    subscriptionTransactionId?: string;
    /** The payment's status, or the plan's on the session endpoint. */
    status?: string;
    transactionId?: string | null;
    declineReason?: string;
    error?: { code?: string; details?: { path?: string }[] };
  };
  retryAfter: number | null;
}

interface Outcome {
  tone: Tone;
  title?: string;
  text: string;
  /** The processor's id of the settled payment this outcome reports; shown to the customer once approved. */
  transactionId?: string;
}

type Focus = CardField | 'submit' | 'status';

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
  /** The server-rendered summary of the link. */
  children: ReactNode;
}

const noSubscription = () => () => {};

export function CheckoutForm({ token, lang, shell, copy, initialHolder, children }: CheckoutFormProps) {
  const [state, setState] = useState<CheckoutState>('ready');
  const [outcome, setOutcome] = useState<Outcome>({ tone: 'info', ...copy.ready });
  const [values, setValues] = useState<CardInput>({ cardNumber: '', cardExpiry: '', cardCvc: '', cardHolder: initialHolder });
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});
  const [focus, setFocus] = useState<{ target: Focus } | null>(null);

  const inputs = useRef<Partial<Record<CardField, HTMLInputElement | null>>>({});
  const submit = useRef<HTMLButtonElement>(null);
  // The pay button works only once React handles the submit: before hydration a native submit
  // would send the card fields to the server as a plain form post (never as a GET, which would
  // put the card number in the URL and the browser's history).
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const status = useRef<HTMLDivElement>(null);
  const lifetime = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    lifetime.current = controller;
    return () => controller.abort();
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
      if (errors[field] && !cardProblems(next)[field]) setErrors({ ...errors, [field]: undefined });
    };
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
        const text = reason === 'insufficient_funds' || reason === 'card_not_supported' ? s.declined[reason] : s.declined.other;
        setValues((v) => ({ ...v, cardNumber: '', cardCvc: '' }));
        finish('declined', { tone: 'danger', title: s.declined.title, text, transactionId }, 'cardNumber');
      } else {
        finish('error', { tone: 'danger', ...s.error, transactionId }, 'submit');
      }
      return;
    }
    const code = reply.body.error?.code;
    if (code === 'invalid_request') {
      const marked = FIELDS.filter((f) => reply.body.error?.details?.some((d) => d.path === f));
      setErrors(Object.fromEntries(marked.map((f) => [f, copy.serverProblem[f]])));
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

  async function pay(card: CardInput, signal: AbortSignal) {
    const s = copy.status;
    let reply = await call(`/checkout/session/${token}/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(card),
      signal,
    });
    // A PENDING charge settles on the server; ask again every 2 s until it has. A lost poll is
    // not an answer: the charge is still under way, so keep asking.
    while (reply.status === 200 && reply.body.status === 'PENDING' && reply.body.subscriptionTransactionId) {
      setOutcome({ tone: 'progress', ...s.pending });
      await sleep(POLL_MS, signal);
      const url = `/checkout/session/${token}/payments/${reply.body.subscriptionTransactionId}`;
      reply = await call(url, { signal }).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return reply;
      });
    }
    if (reply.status === 409) await explainConflict(signal);
    else settle(reply);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (processing) return;
    const problems = cardProblems(values);
    const invalid = FIELDS.filter((f) => problems[f]);
    if (invalid.length > 0) {
      setErrors(Object.fromEntries(invalid.map((f) => [f, copy.problems[f][problems[f]!] ?? copy.serverProblem[f]])));
      setFocus({ target: invalid[0]! });
      return;
    }
    setErrors({});
    setState('processing');
    setOutcome({ tone: 'progress', ...copy.status.processing });
    const signal = lifetime.current?.signal ?? new AbortController().signal;
    try {
      await pay(values, signal);
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
          name={name}
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
        <form className={styles.form} onSubmit={onSubmit} method="post" noValidate aria-labelledby="card-heading">
          <h2 id="card-heading" className={styles.formHeading}>
            {copy.heading}
          </h2>
          {field('cardNumber', { autoComplete: 'cc-number', inputMode: 'numeric', maxLength: 23 })}
          <div className={styles.row}>
            {field('cardExpiry', { autoComplete: 'cc-exp', inputMode: 'numeric', maxLength: 7 })}
            {field('cardCvc', { autoComplete: 'cc-csc', inputMode: 'numeric', maxLength: 4 })}
          </div>
          {field('cardHolder', { autoComplete: 'cc-name', maxLength: 100, hint: copy.holderHint })}
          <p className={styles.fine}>{copy.authorization}</p>
          <button ref={submit} type="submit" className={styles.pay} disabled={!hydrated || processing} aria-busy={processing}>
            {processing ? <span className={styles.spinner} aria-hidden="true" /> : null}
            {processing ? copy.processing : copy.pay}
          </button>
        </form>
      ) : null}
    </CheckoutShell>
  );
}
