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
import { tellOwners } from '@/lib/portal/reauth';
import { signedInRecently } from '@/lib/portal/request';

async function copy() {
  return processorCopy((await headers()).get(LANG_HEADER) === 'en' ? 'en' : 'es');
}

export async function saveWompiKeysAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await signedInRecently('money');
  if (user.refused) return user.refused;
  const { merchantId, actor } = user;
  const t = await copy();
  const db = await getDb();
  const result = await saveProcessor(db, merchantId, {
    type: 'wompi',
    publicKey: text(form, 'publicKey'),
    privateKey: text(form, 'privateKey'),
    eventsSecret: text(form, 'eventsSecret'),
    integritySecret: text(form, 'integritySecret'),
  }, actor);
  if (!result.ok) return { status: 'error', message: t.problem, details: result.problems };
  await tellOwners(db, merchantId, 'wompi_keys', actor);
  revalidatePath('/portal/settings/processor');
  return { status: 'ok', message: t.saved };
}

export async function useSandboxAction(): Promise<FormState> {
  const user = await signedInRecently('money');
  if (user.refused) return user.refused;
  const { merchantId, actor } = user;
  const t = await copy();
  const db = await getDb();
  const result = await saveProcessor(db, merchantId, { type: 'sandbox' }, actor);
  if (result.ok) await tellOwners(db, merchantId, 'processor', actor);
  revalidatePath('/portal/settings/processor');
  return { status: 'ok', message: t.sandboxSaved };
}
