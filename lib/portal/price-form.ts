import type { Db } from '@/db/client';
import type { PlanRow } from '@/db/queries/plans';
import { ApiError } from '@/lib/api/errors';
import type { ProcessorSource } from '@/lib/processors';
import { changePlanPrice } from '@/lib/plans/price-change';
import { planChangeBodySchema } from '@/lib/plans/schemas';

// The plan page's price and seats form as the API's body (docs/billing.md#price-changes,
// docs/billing.md#quantity); a field left empty is not sent, a refused one is named with its label.

export interface PriceFormLabels {
  amount: string;
  quantity: string;
  effective: string;
}

/** Whole numbers as typed ("34.900" and "34900" alike), or the text itself for the schema to refuse. */
function typedNumber(text: string | undefined, scale: number): unknown {
  const typed = (text ?? '').trim().replace(/[.\s]/g, '');
  if (typed === '') return undefined;
  return /^\d{1,12}$/.test(typed) ? Number(typed) * scale : text;
}

/** The price in whole pesos as cents, and the seats; either may be left empty. */
export function priceChangeBodyOf(form: Record<string, string>): Record<string, unknown> {
  return {
    amount: typedNumber(form.amount, 100),
    quantity: typedNumber(form.quantity, 1),
    effective: form.effective || undefined,
  };
}

export type PriceFormResult = { ok: true; plan: PlanRow } | { ok: false; problems: string[] };

export async function changePriceFromForm(
  db: Db,
  processors: ProcessorSource,
  scope: { merchantId: string; planId: string },
  form: Record<string, string>,
  labels: PriceFormLabels,
): Promise<PriceFormResult> {
  const named = (path: string, message: string) => (path === 'amount' || path === 'quantity' || path === 'effective' ? `${labels[path]}: ${message}` : message);
  const parsed = planChangeBodySchema.safeParse(priceChangeBodyOf(form));
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((issue) => named(String(issue.path[0] ?? ''), issue.message)) };
  try {
    return { ok: true, plan: await changePlanPrice(db, processors, scope, parsed.data) };
  } catch (error) {
    // 400 (a refused field), 403/404 (not this merchant's plan), 409 (a declined proration, a charge in flight).
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const details = error.options.details;
    return { ok: false, problems: details?.length ? details.map((d) => named(d.path, d.message)) : [error.message] };
  }
}
