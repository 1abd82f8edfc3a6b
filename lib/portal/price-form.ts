import type { Db } from '@/db/client';
import type { PlanRow } from '@/db/queries/plans';
import { ApiError } from '@/lib/api/errors';
import type { ProcessorSource } from '@/lib/processors';
import { changePlanPrice } from '@/lib/plans/price-change';
import { priceChangeBodySchema } from '@/lib/plans/schemas';

// The plan page's price change form as the API's body (docs/billing.md#price-changes); a refused
// field is named with the form's label.

export interface PriceFormLabels {
  amount: string;
  effective: string;
}

/** Whole pesos as typed ("34.900" and "34900" alike) in cents, or the text itself for the schema to refuse. */
export function priceChangeBodyOf(form: Record<string, string>): Record<string, unknown> {
  const typed = (form.amount ?? '').trim().replace(/[.\s]/g, '');
  return {
    amount: /^\d{1,12}$/.test(typed) ? Number(typed) * 100 : (form.amount ?? ''),
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
  const named = (path: string, message: string) => (path === 'amount' || path === 'effective' ? `${labels[path]}: ${message}` : message);
  const parsed = priceChangeBodySchema.safeParse(priceChangeBodyOf(form));
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
