import type { Db } from '@/db/client';
import { readCapped } from '@/lib/api/body';
import { ApiError } from '@/lib/api/errors';
import { resolveLang } from '@/lib/i18n/locale';
import { getRateLimiter } from '@/lib/rate-limit';
import { type ProcessorSource, resolveProcessor } from '@/lib/processors';
import { type CardField, cardProblems } from '@/lib/processors/card';
import { EMBED_ORIGIN_PARAM, EMBED_PARAM } from '@/lib/widget/protocol';
import { isTrialStart, payCheckout } from './payments';
import { findPlanByToken } from './session';
import { cardPaymentBodySchema } from './schemas';
import { firstParam, paramOf, type SearchParams } from '@/lib/search-params';

// The card form without JavaScript (docs/checkout.md): a form POST paid as the JSON endpoint pays,
// answered with a 303. Card values travel only in the POST body: a redirect carries field names,
// never values, and nothing here logs the body.

const CARD_FIELDS: CardField[] = ['cardNumber', 'cardExpiry', 'cardCvc', 'cardHolder'];

/** The page's query parameters a form post keeps (none of them secret, none from the card). */
const KEPT_PARAMS = ['lang', EMBED_PARAM, EMBED_ORIGIN_PARAM] as const;

/** Why the form came back: shown above it by the checkout page. */
const FORM_PROBLEMS = ['card', 'rate_limited', 'in_progress', 'javascript_required', 'declined'] as const;
type FormProblem = (typeof FORM_PROBLEMS)[number];

export interface FormReturn {
  problem: FormProblem;
  /** For `card`: the fields the server refused. */
  fields: CardField[];
}


/** The kept parameters of a page's query, as a query string (`?…` or empty). */
export function keptQuery(query: SearchParams | URLSearchParams, extra: Record<string, string> = {}): string {
  const out = new URLSearchParams();
  for (const name of KEPT_PARAMS) {
    const value = paramOf(query, name);
    if (value) out.set(name, value);
  }
  for (const [name, value] of Object.entries(extra)) out.set(name, value);
  const text = out.toString();
  return text ? `?${text}` : '';
}

/** Where the form posts: the checkout page's own parameters kept. */
export function cardFormAction(token: string, query: SearchParams): string {
  return `/pay/${token}/card${keptQuery(query)}`;
}

/** What the checkout page shows after a form post came back, read from its query; null for none. */
export function formReturnOf(query: SearchParams): FormReturn | null {
  const problem = firstParam(query.problem);
  if (!problem || !(FORM_PROBLEMS as readonly string[]).includes(problem)) return null;
  const named = (firstParam(query.fields) ?? '').split(',');
  return { problem: problem as FormProblem, fields: CARD_FIELDS.filter((f) => named.includes(f)) };
}

export const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
}

/** One form post of the card; `clientKey` is the JSON endpoint's per-IP bucket. */
export async function payWithCardForm(
  db: Db,
  processors: ProcessorSource,
  { req, token, clientKey }: { req: Request; token: string; clientKey: string },
): Promise<Response> {
  const url = new URL(req.url);
  const back = (extra: Record<string, string> = {}) => seeOther(`/pay/${token}${keptQuery(url.searchParams, extra)}`);

  const limited = await getRateLimiter().limit('checkout-session', clientKey);
  if (!limited.success) return back({ problem: 'rate_limited' });
  let processor;
  try {
    processor = await resolveProcessor(processors, (await findPlanByToken(db, token)).plan.merchantId);
  } catch (error) {
    // Unknown token: the page shows the 404.
    if (error instanceof ApiError) return back();
    throw error;
  }
  // With a real processor the card is tokenized in the browser: the server never sees it. With
  // none (production without Wompi keys) the page explains it.
  if (!processor) return back();
  if (!processor.sandbox) return back({ problem: 'javascript_required' });

  let fields: Record<string, string>;
  try {
    if (!FORM_TYPE.test(req.headers.get('content-type') ?? '')) return back({ problem: 'card' });
    const form = new URLSearchParams(await readCapped(req));
    fields = Object.fromEntries(CARD_FIELDS.map((f) => [f, form.get(f) ?? '']));
  } catch (error) {
    if (error instanceof ApiError) return back({ problem: 'card' });
    throw error;
  }
  const parsed = cardPaymentBodySchema.safeParse(fields);
  if (!parsed.success) {
    const refused = CARD_FIELDS.filter((f) => cardProblems(fields)[f]);
    return back({ problem: 'card', fields: refused.join(',') });
  }

  try {
    // The page's language, as the page resolved it: the customer's e-mails are written in it.
    const lang = resolveLang(url.searchParams.get('lang'), req.headers.get('accept-language'));
    const payment = await payCheckout(db, processor, { token, payment: { instrument: { type: 'CARD', card: parsed.data } }, lang });
    // A free trial's start: the page shows the trial (TRIALING); a refused card comes back to the form.
    if (isTrialStart(payment)) return payment.status === 'TRIALING' ? back() : back({ problem: 'declined' });
    return seeOther(`/pay/${token}/payments/${payment.subscriptionTransactionId}${keptQuery(url.searchParams)}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'rate_limited') return back({ problem: 'rate_limited' });
    // Paid already, paused or cancelled: the page says so. Or another payment is under way.
    if (error.code === 'conflict') return back({ problem: 'in_progress' });
    // Expired or unknown: the page shows the expired notice or the 404.
    return back();
  }
}
