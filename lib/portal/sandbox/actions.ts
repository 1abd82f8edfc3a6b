'use server';

// Pruebas' server actions (docs/portal.md#pruebas): the merchant's own test clock, through the API's domain code.

import { revalidatePath } from 'next/cache';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { merchantProcessors } from '@/lib/processors';
import type { FormState } from '@/lib/portal/form-state';
import { formatDateTime } from '@/lib/portal/i18n';
import { signedIn } from '@/lib/portal/request';
import { advanceFromForm, resetFromForm, sandboxToolsShown } from '@/lib/portal/sandbox-page';
import { sandboxCopy } from '@/lib/portal/sandbox-i18n';

export async function advanceClockAction(_: FormState, form: FormData): Promise<FormState> {
  if (!sandboxToolsShown()) notFound();
  const { merchantId, lang, refused } = await signedIn('business');
  if (refused) return refused;
  const t = sandboxCopy(lang);
  const db = await getDb();
  const result = await advanceFromForm(db, merchantProcessors(db), merchantId, String(form.get('advanceTo') ?? ''));
  if (!result.ok) {
    const message = result.problem === 'missing' ? t.missing : result.problem === 'busy' ? t.busy : t.problem;
    const details = result.problem === 'missing' || result.problem === 'busy' ? undefined : [result.problem];
    return { status: 'error', message, details };
  }
  revalidatePath('/portal/sandbox/clock');
  const last = result.view.lastAdvance!;
  return {
    status: 'ok',
    message: fill(t.advanced, {
      at: formatDateTime(new Date(result.view.frozenTime!), lang),
      charges: last.approved + last.declined + last.error + last.pending,
      approved: last.approved,
      declined: last.declined,
    }),
  };
}

export async function resetClockAction(): Promise<FormState> {
  if (!sandboxToolsShown()) notFound();
  const { merchantId, lang, refused } = await signedIn('business');
  if (refused) return refused;
  const t = sandboxCopy(lang);
  const { ok } = await resetFromForm(await getDb(), merchantId);
  if (!ok) return { status: 'error', message: t.busy };
  revalidatePath('/portal/sandbox/clock');
  return { status: 'ok', message: t.resetDone };
}
