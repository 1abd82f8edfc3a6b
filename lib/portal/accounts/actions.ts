'use server';

// Signing up, in and out of the portal (docs/portal.md). Next refuses an action posted from
// another origin (CSRF).

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { signIn, signOut, signOutEverywhere, signUp } from '@/lib/portal/accounts';
import { errorState as error, type FormState, formText as text } from '@/lib/portal/form-state';
import { portalLang, requireUser } from '@/lib/portal/request';

export async function signUpAction(_: FormState, form: FormData): Promise<FormState> {
  const { t } = await portalLang();
  const result = await signUp(
    await getDb(),
    { merchantName: text(form, 'merchantName'), name: text(form, 'name'), email: text(form, 'email'), password: text(form, 'password') },
    await headers(),
  );
  if (result.ok) redirect('/portal/settings/api');
  if (result.problem === 'invalid') return error(t.auth.invalid);
  if (result.problem === 'email_taken') return error(t.auth.emailTaken);
  return error(t.auth.password_problems[result.problem]);
}

export async function signInAction(_: FormState, form: FormData): Promise<FormState> {
  const { t } = await portalLang();
  const result = await signIn({ email: text(form, 'email'), password: text(form, 'password') }, await headers());
  if (result.ok) redirect('/portal/overview');
  if (result.problem === 'rate_limited') return error(fill(t.auth.rateLimited, { seconds: result.retryAfterSeconds }));
  return error(t.auth.invalidCredentials);
}

export async function signOutAction(): Promise<void> {
  await signOut(await headers());
  redirect('/portal/sign-in');
}

export async function signOutEverywhereAction(): Promise<void> {
  await requireUser();
  await signOutEverywhere(await headers());
  redirect('/portal/sign-in');
}
