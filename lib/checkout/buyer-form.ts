import type { Db } from '@/db/client';
import { readCapped } from '@/lib/api/body';
import { ApiError } from '@/lib/api/errors';
import { type BuyerOutcome, buyerQuery, changePlanBuyer, readBuyerForm } from '@/lib/invoices/buyer';
import { getRateLimiter } from '@/lib/rate-limit';
import { type SearchParams } from '@/lib/search-params';
import { FORM_TYPE, keptQuery, seeOther } from './card-form';
import { findCheckoutPlan } from './session';

// The hosted page's "Factura a nombre de…" (docs/einvoicing.md#the-buyer): a plain form POST to
// /pay/<token>/buyer, with or without JavaScript and in the widget's frame, that names who the
// plan's invoices are made out to before it is paid (so its first invoice carries it), or, with
// `intent=remove`, goes back to the final consumer. Answered 303 back to the page with `?buyer=`
// saying what became of it; a refusal changes nothing.

export const BUYER_ANCHOR = 'buyer';

/** Where the form posts: the checkout page's own parameters kept. */
export function buyerFormAction(token: string, query: SearchParams): string {
  return `/pay/${token}/buyer${keptQuery(query)}`;
}

export async function saveBuyerForm(db: Db, { req, token, clientKey }: { req: Request; token: string; clientKey: string }): Promise<Response> {
  const url = new URL(req.url);
  const back = (outcome?: BuyerOutcome, expected?: number) =>
    seeOther(`/pay/${token}${keptQuery(url.searchParams, outcome ? buyerQuery(outcome, expected) : {})}#${BUYER_ANCHOR}`);
  const limited = await getRateLimiter().limit('checkout-session', clientKey);
  if (!limited.success) return back('rate_limited');
  let form: URLSearchParams;
  try {
    if (!FORM_TYPE.test(req.headers.get('content-type') ?? '')) return back('form');
    form = new URLSearchParams(await readCapped(req));
  } catch (error) {
    if (error instanceof ApiError) return back('form');
    throw error;
  }
  const remove = form.get('intent') === 'remove';
  const reading = remove ? null : readBuyerForm((name) => form.get(name) ?? '');
  if (reading && !reading.ok) return back(reading.problem, reading.expected);
  try {
    const { plan, link } = await findCheckoutPlan(db, token);
    // A renewal link pays a period of a plan already running: its buyer is changed on the manage page.
    if (link) return back('unavailable');
    await changePlanBuyer(db, { planId: plan.id, statuses: ['PENDING_ACTIVATION'], buyer: reading?.buyer ?? null });
    return back(remove ? 'removed' : 'saved');
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Unknown or expired: the page shows its 404 or notice. Paid meanwhile, or not invoicing: unavailable.
    return error.code === 'conflict' ? back('unavailable') : back();
  }
}
