'use server';

// Transacciones and the plan page's refunds due (docs/billing.md#refund-due): marking a late PSE or
// Nequi payment refunded once the merchant has paid it back at the processor.

import { revalidatePath } from 'next/cache';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { fill, formatCop } from '@/lib/i18n/format';
import { errorState, type FormState, formText, okState } from '@/lib/portal/form-state';
import { formatDateTime } from '@/lib/portal/i18n';
import { refundsCopy } from '@/lib/portal/refunds-i18n';
import { signedIn } from '@/lib/portal/request';
import { markPaymentRefunded } from '@/lib/settlement/refunds';

export async function markRefundedAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, lang, actor, refused } = await signedIn('business');
  if (refused) return refused;
  const r = refundsCopy(lang);
  try {
    const mark = await markPaymentRefunded(await getDb(), { merchantId, transactionId: formText(form, 'transactionId'), actor });
    if (!mark.ok) return errorState(mark.problem === 'already_refunded' ? fill(r.already_refunded, { date: formatDateTime(mark.refundedAt, lang) }) : r.not_due);
    revalidatePath('/portal/transactions');
    revalidatePath('/portal/activity/plans/[planId]', 'page');
    return okState(fill(r.marked, { id: mark.txn.id, amount: formatCop(mark.txn.amount) }));
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'forbidden' || error.code === 'not_found')) return errorState(r[error.code]);
    throw error;
  }
}
