'use server';

// Settings → Facturación's and the Invoices page's server actions (docs/portal.md): each acts only
// on the signed-in user's merchant; Next refuses one posted from another origin.

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { LANG_HEADER } from '@/lib/checkout/i18n';
import { retryInvoice } from '@/lib/invoices/views';
import { einvoicingCopy } from '@/lib/portal/einvoicing-i18n';
import { saveEInvoicing, testEInvoicing } from '@/lib/portal/einvoicing-page';
import { type FormState, formText as text } from '@/lib/portal/form-state';
import { tellOwners } from '@/lib/portal/reauth';
import { signedIn, signedInRecently } from '@/lib/portal/request';

async function copy() {
  return einvoicingCopy((await headers()).get(LANG_HEADER) === 'en' ? 'en' : 'es');
}

const iva = (form: FormData) => {
  const value = text(form, 'iva');
  return value === 'excluded' ? value : Number(value);
};
const whole = (form: FormData, name: string) => (text(form, name).trim() === '' ? undefined : Number(text(form, name)));

async function save(settings: unknown): Promise<FormState> {
  const user = await signedInRecently('money');
  if (user.refused) return user.refused;
  const { merchantId, actor } = user;
  const t = await copy();
  const db = await getDb();
  const result = await saveEInvoicing(db, merchantId, settings, actor);
  if (!result.ok) return { status: 'error', message: t.problem, details: result.problems };
  if (settings) await tellOwners(db, merchantId, 'einvoicing_credentials', actor);
  revalidatePath('/portal/settings/invoicing');
  return { status: 'ok', message: settings ? t.saved : t.turnedOff };
}

export async function saveFactusAction(_: FormState, form: FormData): Promise<FormState> {
  return save({
    provider: 'factus',
    clientId: text(form, 'clientId'),
    clientSecret: text(form, 'clientSecret'),
    username: text(form, 'username'),
    password: text(form, 'password'),
    numberingRangeId: whole(form, 'numberingRangeId'),
    iva: iva(form),
  });
}

export async function saveAlegraAction(_: FormState, form: FormData): Promise<FormState> {
  return save({
    provider: 'alegra',
    token: text(form, 'token'),
    companyId: text(form, 'companyId'),
    resolution: {
      number: text(form, 'resolutionNumber'),
      prefix: text(form, 'prefix'),
      from: whole(form, 'from'),
      to: whole(form, 'to'),
      startDate: text(form, 'startDate'),
      endDate: text(form, 'endDate'),
      technicalKey: text(form, 'technicalKey'),
    },
    iva: iva(form),
  });
}

export async function turnEInvoicingOffAction(): Promise<FormState> {
  return save(null);
}

export async function testEInvoicingAction(): Promise<FormState> {
  const { merchantId, refused } = await signedIn('money');
  if (refused) return refused;
  const t = await copy();
  const result = await testEInvoicing(await getDb(), merchantId);
  if (result === 'ok') return { status: 'ok', message: t.testOk };
  if (result === 'off') return { status: 'error', message: t.testOff };
  if (result === 'retry') return { status: 'error', message: t.testRetry };
  return { status: 'error', message: t.testAuth.replace('{message}', result.refused) };
}

export async function retryInvoiceAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, refused } = await signedIn('business');
  if (refused) return refused;
  const t = await copy();
  try {
    await retryInvoice(await getDb(), merchantId, text(form, 'invoiceId'));
  } catch (error) {
    if (error instanceof ApiError) return { status: 'error', message: error.message };
    throw error;
  }
  revalidatePath('/portal/invoices');
  return { status: 'ok', message: t.retried };
}
