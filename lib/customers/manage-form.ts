import type { Db } from '@/db/client';
import { readCapped } from '@/lib/api/body';
import { clientIp } from '@/lib/api/with-checkout';
import { getRateLimiter } from '@/lib/rate-limit';
import { ApiError } from '@/lib/api/errors';
import { parseCheckoutPayment } from '@/lib/checkout/payment-schemas';
import { isCrossOriginPost } from '@/lib/http/same-origin';
import type { ProcessorSource } from '@/lib/processors';
import { parseCard } from '@/lib/processors/card';
import type { Consent, PaymentInstrument } from '@/lib/processors/processor';
import { MANAGE_COPY } from './manage-i18n';
import type { PlanRow } from '@/db/queries/plans';
import { chargedUntilCancelled } from '@/lib/plans/cancel-at';
import { MANAGE_TOKEN_PATTERN } from '@/lib/auth/manage-links';
import { buyerQuery, readBuyerForm } from '@/lib/invoices/buyer';
import { cancelAtPeriodEndByCustomer, cancelByCustomer, changeBuyerByCustomer, keepByCustomer, REPLACEMENT_UNAVAILABLE, replacePaymentMethod } from './self-service';

// The manage page's forms (docs/customers.md#the-manage-page): plain form posts, with or without
// JavaScript. The page sends no referrer, so they come with `Origin: null`, which Server Actions
// refuse: these handlers check the origin and the token themselves and answer with a 303.

type Form = URLSearchParams | FormData;

const field = (form: Form, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
}

/** Back to the page, saying what happened, in the page's language (the buyer's form: at its section). */
function back(token: string, lang: string, outcome: Outcome): Response {
  return seeOther(`/manage/${token}?${new URLSearchParams({ ...outcome, ...(lang === 'en' ? { lang } : {}) })}${'buyer' in outcome ? '#buyer' : ''}`);
}

function refused(lang: string): Response {
  const c = MANAGE_COPY[lang === 'en' ? 'en' : 'es'];
  const body = `<!doctype html><html lang="${lang === 'en' ? 'en' : 'es-CO'}"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${c.refusedTitle}</title><h1>${c.refusedTitle}</h1><p>${c.refusedBody}</p></html>`;
  return new Response(body, { status: 403, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/** The posted form, or null for a body that is not a readable form. */
async function readForm(req: Request): Promise<Form | null> {
  const type = req.headers.get('content-type') ?? '';
  try {
    const text = await readCapped(req);
    if (/^application\/x-www-form-urlencoded\s*(?:;|$)/i.test(type)) return new URLSearchParams(text);
    if (/^multipart\/form-data/i.test(type)) return await new Response(text, { headers: { 'Content-Type': type } }).formData();
    return null;
  } catch (error) {
    // Too large, cut short or malformed: nothing to act on.
    if (error instanceof ApiError || error instanceof TypeError) return null;
    throw error;
  }
}

type Outcome = { done: string } | { problem: string } | ReturnType<typeof buyerQuery>;
type Handle = (form: Form, token: string) => Promise<Outcome>;

/** One form post: origin, token and body checked, then `handle`, then back to the page. */
async function answerForm(req: Request, token: string, handle: Handle): Promise<Response> {
  const lang = new URL(req.url).searchParams.get('lang') ?? '';
  if (isCrossOriginPost(req.headers)) return refused(lang);
  // An unknown or expired token is answered by the page itself (its not-found, no data).
  if (!MANAGE_TOKEN_PATTERN.test(token)) return seeOther(`/manage/${encodeURIComponent(token)}`);
  const form = await readForm(req);
  if (!form) return back(token, lang, { problem: 'form' });
  return back(token, field(form, 'lang') || lang, await handle(form, token));
}

function problemOf(error: unknown): string {
  if (error instanceof ApiError) return error.code === 'not_found' ? 'invalid' : 'conflict';
  throw error;
}

/** What the page says of a scheduled cancellation: a minimum term's keeps charging until it ends. */
const scheduled = (plan: PlanRow): Outcome => ({ done: chargedUntilCancelled(plan) ? 'cancelAtTermEnd' : 'cancelAtPeriodEnd' });

/** POST /manage/<token>/cancel: now, `at=period_end`, or `at=keep` to undo that (docs/billing.md#cancel-at-the-end-of-the-period). */
export function cancelWithForm(db: Db, { req, token }: { req: Request; token: string }): Promise<Response> {
  return answerForm(req, token, async (form): Promise<Outcome> => {
    const at = field(form, 'at');
    try {
      if (at === 'period_end') return scheduled(await cancelAtPeriodEndByCustomer(db, token));
      if (at === 'keep') return (await keepByCustomer(db, token), { done: 'kept' });
      if (at !== '') return { problem: 'form' };
      const { plan, emailed } = await cancelByCustomer(db, token);
      if (plan.status !== 'CANCELLED') return scheduled(plan);
      // A plan never paid gets no e-mail, so the page does not promise one.
      return { done: emailed ? 'cancelled' : 'cancelledUnpaid' };
    } catch (error) {
      return { problem: problemOf(error) };
    }
  });
}

function tokenizedOf(form: Form): { instrument: PaymentInstrument; consent?: Consent } | null {
  const names = ['method', 'cardToken', 'cardBrand', 'cardLast4', 'nequiToken', 'phoneNumber', 'acceptanceToken', 'personalDataToken'];
  const body = Object.fromEntries(names.map((name) => [name, form.get(name) ?? undefined]));
  try {
    const parsed = parseCheckoutPayment(body);
    const tokenized = parsed.instrument.type === 'CARD_TOKEN' || parsed.instrument.type === 'NEQUI_TOKEN';
    return tokenized && parsed.consent ? parsed : null;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** What the form asks to save: a card or Nequi number (sandbox), or Wompi's tokens; null when refused. */
function instrumentOf(form: Form): { instrument: PaymentInstrument; consent?: Consent } | { problem: string } {
  const nequi = field(form, 'method') === 'NEQUI';
  if (field(form, 'cardToken') || field(form, 'nequiToken')) {
    // With Wompi the browser tokenized the method (docs/customers.md): only its token and both
    // acceptance tokens come here, checked as the checkout checks them.
    return tokenizedOf(form) ?? { problem: nequi ? 'nequi' : 'card' };
  }
  if (nequi) {
    const phone = field(form, 'phoneNumber').replace(/\D/g, '');
    return phone.length === 10 ? { instrument: { type: 'NEQUI', phoneNumber: phone } } : { problem: 'nequi' };
  }
  const card = parseCard({ cardNumber: field(form, 'cardNumber'), cardExpiry: field(form, 'cardExpiry'), cardCvc: field(form, 'cardCvc'), cardHolder: field(form, 'cardHolder') });
  return card ? { instrument: { type: 'CARD', card } } : { problem: 'card' };
}

/** POST /manage/<token>/method: a new payment method for renewals; nothing is charged. */
export function replaceMethodWithForm(db: Db, processors: ProcessorSource, { req, token }: { req: Request; token: string }): Promise<Response> {
  return answerForm(req, token, async (form): Promise<Outcome> => {
    // Card testing through a leaked link: a few tries a minute per link and per address.
    const limiter = getRateLimiter();
    const perLink = await limiter.limit('manage-method', token);
    if (!perLink.success || !(await limiter.limit('manage-method-ip', clientIp(req))).success) return { problem: 'too_many' };
    const asked = instrumentOf(form);
    if ('problem' in asked) return asked;
    try {
      const result = await replacePaymentMethod(db, processors, { token, ...asked });
      if (result.declined) return { problem: 'declined' };
      return { done: result.openRenewal ? 'methodWithRenewal' : 'method' };
    } catch (error) {
      return { problem: error instanceof ApiError && error.message === REPLACEMENT_UNAVAILABLE ? 'unavailable' : problemOf(error) };
    }
  });
}

/** POST /manage/<token>/buyer: who later invoices are made out to, or (`intent=remove`) the final consumer again. */
export function changeBuyerWithForm(db: Db, { req, token }: { req: Request; token: string }): Promise<Response> {
  return answerForm(req, token, async (form): Promise<Outcome> => {
    const remove = field(form, 'intent') === 'remove';
    const reading = remove ? null : readBuyerForm((name) => field(form, name));
    if (reading && !reading.ok) return buyerQuery(reading.problem, reading.expected);
    try {
      await changeBuyerByCustomer(db, token, reading?.buyer ?? null);
      return buyerQuery(remove ? 'removed' : 'saved');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'conflict') return buyerQuery('unavailable');
      return { problem: problemOf(error) };
    }
  });
}
