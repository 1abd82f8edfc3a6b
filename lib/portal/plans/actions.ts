'use server';

// The plan page's actions (docs/portal.md#activity-and-transactions): a price change as the API makes it.

import { revalidatePath } from 'next/cache';
import { getDb } from '@/db/client';
import { fill, formatCop } from '@/lib/i18n/format';
import { merchantProcessors } from '@/lib/processors';
import { errorState, type FormState, formText, okState } from '@/lib/portal/form-state';
import { ApiError } from '@/lib/api/errors';
import { formatDateTime } from '@/lib/portal/i18n';
import { scheduleCancellation } from '@/lib/plans/cancel-at';
import { changePriceFromForm } from '@/lib/portal/price-form';
import { signedIn } from '@/lib/portal/request';

export async function changePriceAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, refused } = await signedIn('business');
  if (refused) return refused;
  const a = t.activity;
  const value = (name: string) => String(form.get(name) ?? '');
  const db = await getDb();
  const result = await changePriceFromForm(
    db,
    merchantProcessors(db),
    { merchantId, planId: value('planId') },
    { amount: value('amount'), quantity: value('quantity'), effective: value('effective') },
    { amount: a.priceAmount, quantity: a.priceQuantity, effective: a.priceEffective },
  );
  if (!result.ok) return { status: 'error', message: a.priceProblem, details: result.problems };
  revalidatePath('/portal/activity/plans/[planId]', 'page');
  const { plan } = result;
  const price = (unit: number, quantity: number) => (quantity === 1 ? formatCop(unit) : fill(a.seatsAmount, { quantity, unit: formatCop(unit), total: formatCop(unit * quantity) }));
  // Applied; or, for `now`, the difference's charge still PENDING at the processor (applied when it is approved); or scheduled.
  const message =
    plan.scheduledAmount === null
      ? fill(a.priceChanged, { amount: price(plan.amount, plan.quantity) })
      : fill(value('effective') === 'now' ? a.pricePending : a.priceScheduled, { amount: price(plan.scheduledAmount, plan.scheduledQuantity ?? plan.quantity) });
  return { status: 'ok', message };
}

/** Cancel at the end of the period (docs/billing.md#cancel-at-the-end-of-the-period), or undo it, as the API does. */
export async function cancelAtPeriodEndAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, lang, refused } = await signedIn('business');
  if (refused) return refused;
  const a = t.activity;
  const undo = formText(form, 'undo') === 'true';
  try {
    const plan = await scheduleCancellation(await getDb(), { merchantId, planId: formText(form, 'planId') }, { undo });
    revalidatePath('/portal/activity/plans/[planId]', 'page');
    return okState(plan.cancelAt ? fill(a.endScheduled, { date: formatDateTime(plan.cancelAt, lang) }) : a.endUndone);
  } catch (error) {
    if (error instanceof ApiError) return errorState(fill(a.endProblem, { message: error.message }));
    throw error;
  }
}
