'use server';

// The plan page's actions (docs/portal.md#activity-and-transactions): a price change, exactly as
// PATCH /merchants/subscription-plans/{id} makes it (docs/billing.md#price-changes), on the
// signed-in user's merchant's plan only; Next refuses an action posted from another origin.

import { revalidatePath } from 'next/cache';
import { getDb } from '@/db/client';
import { fill, formatCop } from '@/lib/i18n/format';
import { merchantProcessors } from '@/lib/processors';
import type { FormState } from '@/lib/portal/form-state';
import { changePriceFromForm } from '@/lib/portal/price-form';
import { signedIn } from '@/lib/portal/request';

export async function changePriceAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t } = await signedIn();
  const a = t.activity;
  const value = (name: string) => String(form.get(name) ?? '');
  const db = await getDb();
  const result = await changePriceFromForm(db, merchantProcessors(db), { merchantId, planId: value('planId') }, { amount: value('amount'), effective: value('effective') }, {
    amount: a.priceAmount,
    effective: a.priceEffective,
  });
  if (!result.ok) return { status: 'error', message: a.priceProblem, details: result.problems };
  revalidatePath('/portal/activity/plans/[planId]', 'page');
  const { plan } = result;
  // Applied; or, for `now`, the difference's charge still PENDING at the processor (applied when it is approved); or scheduled.
  const message =
    plan.scheduledAmount === null
      ? fill(a.priceChanged, { amount: formatCop(plan.amount) })
      : fill(value('effective') === 'now' ? a.pricePending : a.priceScheduled, { amount: formatCop(plan.scheduledAmount) });
  return { status: 'ok', message };
}
