'use server';

// Ajustes → Procesador's server actions (docs/portal.md): each acts only on the signed-in user's
// merchant; Next refuses one posted from another origin.

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { getDb } from '@/db/client';
import { LANG_HEADER } from '@/lib/checkout/i18n';
import { type FormState, formText as text } from '@/lib/portal/form-state';
import { processorCopy } from '@/lib/portal/processor-i18n';
import { saveProcessor } from '@/lib/portal/processor-page';
import { signedIn } from '@/lib/portal/request';

async function copy() {
  return processorCopy((await headers()).get(LANG_HEADER) === 'en' ? 'en' : 'es');
}

export async function saveWompiKeysAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, actor } = await signedIn();
  const t = await copy();
  const result = await saveProcessor(await getDb(), merchantId, {
    type: 'wompi',
    publicKey: text(form, 'publicKey'),
    privateKey: text(form, 'privateKey'),
    eventsSecret: text(form, 'eventsSecret'),
    integritySecret: text(form, 'integritySecret'),
  }, actor);
  if (!result.ok) return { status: 'error', message: t.problem, details: result.problems };
  revalidatePath('/portal/settings/processor');
  return { status: 'ok', message: t.saved };
}

export async function useSandboxAction(): Promise<FormState> {
  const { merchantId, actor } = await signedIn();
  const t = await copy();
  await saveProcessor(await getDb(), merchantId, { type: 'sandbox' }, actor);
  revalidatePath('/portal/settings/processor');
  return { status: 'ok', message: t.sandboxSaved };
}
