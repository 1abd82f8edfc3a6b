'use server';

// The portal's actions for the customers' side (docs/customers.md): the renewal settings and an
// e-mail sent again. Scoped to the signed-in user's merchant, like every portal action.

import { revalidatePath } from 'next/cache';
import { getDb } from '@/db/client';
import { updateMerchant } from '@/lib/merchants/merchants';
import { CUSTOMER_PORTAL_COPY } from '@/lib/customers/portal-i18n';
import { renewalSettingsSchema } from '@/lib/merchants/schemas';
import type { FormState } from '@/lib/portal/form-state';
import { resendGivenUpEmail } from '@/lib/email/send';
import { fill } from '@/lib/i18n/format';
import { ownedOrInterrupt, signedIn } from '@/lib/portal/request';

/** The renewal settings (docs/billing.md#renewal-links), with the operator API's rules: a value out of range names its field. */
export async function saveRenewalSettingsAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, lang, actor, refused } = await signedIn('business');
  if (refused) return refused;
  const c = CUSTOMER_PORTAL_COPY[lang];
  const whole = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  };
  const parsed = renewalSettingsSchema.safeParse({
    reminderDays: whole('reminderDays'),
    graceDays: whole('graceDays'),
    renewalLadder: form.get('renewalLadder') === 'on',
  });
  if (!parsed.success) {
    return { status: 'error', message: c.renewalsProblem, details: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  }
  await updateMerchant(await getDb(), merchantId, parsed.data, actor);
  revalidatePath('/portal/settings/processor');
  return { status: 'ok', message: c.renewalsSaved };
}

/** Sends again an e-mail given up after every attempt (docs/customers.md#e-mails); another merchant's is the 403. */
export async function resendEmailAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, lang, refused } = await signedIn('business');
  if (refused) return refused;
  const c = CUSTOMER_PORTAL_COPY[lang];
  const id = form.get('emailId');
  const db = await getDb();
  const outcome = await ownedOrInterrupt(resendGivenUpEmail(db, merchantId, typeof id === 'string' ? id : ''));
  revalidatePath('/portal/activity/plans/[planId]', 'page');
  if (outcome.status === 'sent') return { status: 'ok', message: c.emailResent };
  if (outcome.status === 'failed') return { status: 'error', message: fill(c.emailResendFailed, { error: outcome.error ?? '' }) };
  return { status: 'error', message: c.emailNotGivenUp };
}
