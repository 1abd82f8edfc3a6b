'use client';

// The checkout form's state machine (docs/checkout.md): what the payer typed, the submit, the
// polling of a PENDING payment and the reply turned into the page's state and message. The form
// (checkout-form.tsx) is its markup. The request body and the checks before a submit are pure
// code in lib/checkout/payment-body.ts; the browser's calls to Wompi are in wompi-browser.ts.

import { type ChangeEvent, type FormEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { FormCopy } from '@/lib/checkout/i18n';
import type { MethodsCopy } from '@/lib/checkout/methods-i18n';
import { type BrowserTokens, CARD_FIELDS, type PaymentFields, type PaymentProblems, type PseField, type PseValues, paymentBody, paymentProblems, phoneDigits } from '@/lib/checkout/payment-body';
import type { CheckoutProcessor, PaymentMethodChoice } from '@/lib/checkout/processor-types';
import { type CardField, type CardInput, type CardRules, cardProblems, parseCard, WOMPI_MIN_HOLDER } from '@/lib/processors/card';
import { shapeCardInput } from './card-input';
import type { CheckoutState, Tone } from './checkout-shell';
import { freshConsent, tokenizeCard, tokenizeNequi } from './wompi-browser';

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
    /** A renewal link's payment approved after its plan was cancelled or paused (docs/billing.md#late-payments). */
    late?: true;
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
type Element = HTMLInputElement | HTMLSelectElement | null;

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

interface CheckoutPaymentOptions {
  token: string;
  lang: string;
  copy: FormCopy;
  methodsCopy: MethodsCopy;
  processor: CheckoutProcessor;
  initialHolder: string;
  initialPhone: string;
  subscription: boolean;
  initial?: { outcome?: Outcome; errors?: Partial<Record<CardField, string>> };
  resumePayment?: string;
}

export function useCheckoutPayment(options: CheckoutPaymentOptions) {
  const { token, lang, copy, initialHolder, initial, processor, methodsCopy: mc } = options;
  const [state, setState] = useState<CheckoutState>(options.resumePayment ? 'processing' : 'ready');
  const [outcome, setOutcome] = useState<Outcome>(options.resumePayment ? { tone: 'progress', ...copy.status.pending } : (initial?.outcome ?? { tone: 'info', ...copy.ready }));
  const [method, setMethod] = useState<PaymentMethodChoice>('CARD');
  const [values, setValues] = useState<CardInput>({ cardNumber: '', cardExpiry: '', cardCvc: '', cardHolder: initialHolder });
  const [nequiPhone, setNequiPhone] = useState(options.initialPhone);
  const [pse, setPse] = useState<PseValues>({ institutionCode: '', userType: 'PERSON', legalIdType: 'CC', legalId: '', fullName: initialHolder, phoneNumber: options.initialPhone });
  const [accepted, setAccepted] = useState({ endUser: false, personalData: false });
  const [errors, setErrors] = useState<PaymentProblems>(initial?.errors ?? {});
  const [focus, setFocus] = useState<{ target: Focus } | null>(null);
  // With Wompi nothing may be submitted before the page's code runs: it would post the card to us.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const wompi = processor.type === 'wompi' ? processor : null;
  const rules: CardRules = wompi ? { minHolder: WOMPI_MIN_HOLDER } : {};

  const inputs = useRef<Partial<Record<string, Element>>>({});
  const submitRef = useRef<HTMLButtonElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const lifetime = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    lifetime.current = controller;
    // Back from the bank (PSE), or reopened while a payment is PENDING: show that payment settle.
    if (options.resumePayment) {
      void follow({ status: 200, body: { status: 'PENDING', subscriptionTransactionId: options.resumePayment }, retryAfter: null }, controller.signal).catch(() => {
        if (!controller.signal.aborted) finish('error', { tone: 'danger', ...copy.status.network }, 'submit');
      });
    }
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount
  }, []);

  // Focus moves after the render that enables or marks its target.
  useEffect(() => {
    if (!focus) return;
    const element = focus.target === 'submit' ? submitRef.current : focus.target === 'status' ? statusRef.current : inputs.current[focus.target];
    element?.focus();
  }, [focus]);

  const processing = state === 'processing';

  function changeCard(field: CardField) {
    return (event: ChangeEvent<HTMLInputElement>) => {
      const value = shapeCardInput(field, event.target, values[field]);
      const next = { ...values, [field]: value };
      setValues(next);
      // A field marked in error is checked again as it is corrected; others wait for the submit.
      if (errors[field] && !cardProblems(next, undefined, rules)[field]) setErrors({ ...errors, [field]: undefined });
    };
  }

  function register(name: string, el: Element) {
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
      if (payment.late && s.late) {
        // It pays nothing: voided (a card), or for the merchant to refund.
        finish('unavailable', { tone: 'warning', title: s.late.title, text: payment.status === 'VOIDED' ? s.late.voided : s.late.refund, transactionId }, 'status');
      } else if (payment.status === 'TRIALING') {
        finish('approved', { tone: 'success', ...s.trialStarted }, 'status');
      } else if (payment.status === 'APPROVED') {
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
      const marked = CARD_FIELDS.filter((f) => reply.body.error?.details?.some((d) => d.path === f));
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
    const post = () =>
      call(`/checkout/session/${token}/payments?lang=${encodeURIComponent(lang)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
    let reply = await post();
    // A free trial on a Nequi account not yet approved in the app: PENDING with no payment to ask
    // about; the same start is posted again until Nequi answers (docs/billing.md#trials).
    while (reply.status === 200 && reply.body.status === 'PENDING' && !reply.body.subscriptionTransactionId && !reply.body.redirectUrl) {
      setOutcome({ tone: 'progress', ...mc.nequi.waiting });
      await sleep(POLL_MS, signal);
      reply = await post();
    }
    await follow(reply, signal);
  }

  const fields = (): PaymentFields => ({ method, card: values, nequiPhone, pse, accepted });

  /** Wompi's tokens for this attempt: a fresh consent pair, and the card or Nequi account tokenized here (none with the sandbox). */
  async function browserTokens(signal: AbortSignal): Promise<BrowserTokens> {
    if (!wompi) return {};
    const tokens: BrowserTokens = {};
    if (method === 'CARD') {
      setOutcome({ tone: 'progress', title: copy.status.processing.title, text: mc.tokenizing });
      const card = parseCard(values, undefined, rules)!;
      tokens.card = await tokenizeCard(wompi.apiUrl, wompi.publicKey, { number: card.number, expMonth: card.expMonth, expYear: card.expYear, cvc: card.cvc, holder: card.holder }, signal);
      setValues((v) => ({ ...v, cardNumber: '', cardCvc: '' }));
    } else if (method === 'NEQUI' && options.subscription) {
      // A Nequi subscription: the account is tokenized here and posted at once; the payer approves
      // it in the app, and our server goes on when Wompi says so (docs/processors.md#nequi-subscriptions).
      setOutcome({ tone: 'progress', ...mc.nequi.waiting });
      tokens.nequiToken = (await tokenizeNequi(wompi.apiUrl, wompi.publicKey, phoneDigits(nequiPhone), signal)).id;
    }
    tokens.consent = await freshConsent(wompi.apiUrl, wompi.publicKey, signal);
    return tokens;
  }

  const focusOf = (name: string): Focus => (name === 'phoneNumber' && method === 'NEQUI' ? 'nequiPhone' : (name as Focus));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (processing) return;
    const problems = paymentProblems(fields(), { form: copy, methods: mc }, { rules, consentRequired: wompi !== null });
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
      const body = paymentBody(fields(), await browserTokens(signal));
      await pay(body, signal);
    } catch {
      if (!signal.aborted) finish('error', { tone: 'danger', ...copy.status.network }, 'submit');
    }
  }

  return {
    state,
    outcome,
    processing,
    hydrated,
    wompi,
    method,
    chooseMethod,
    values,
    changeCard,
    nequiPhone,
    setNequiPhone,
    pse,
    changePse: (patch: Partial<PseValues>) => setPse((v) => ({ ...v, ...patch })),
    accepted,
    setAccepted,
    errors,
    register,
    submitRef,
    statusRef,
    onSubmit,
  };
}
