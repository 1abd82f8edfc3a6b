'use server';

// Signing up, verifying, in and out of the portal, and the password's reset and change
// (docs/portal.md#accounts). Next refuses an action posted from another origin (CSRF).

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { type Db, getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { changePassword, endSession, type PortalUser, requestPasswordReset, resetPassword, signIn, signOut, signOutEverywhere, signUp, verifyEmail } from '@/lib/portal/accounts';
import { errorState as error, type FormState, formText as text, okState as ok } from '@/lib/portal/form-state';
import { revalidatePath } from 'next/cache';
import { formatDateTime } from '@/lib/portal/i18n';
import { reauthenticate, reauthenticatedUntil } from '@/lib/portal/reauth';
import { portalLang, requireAccount, userActor } from '@/lib/portal/request';
import { type SecurityCopy, securityCopy } from '@/lib/portal/security-i18n';
import { confirmTwoFactor, disableTwoFactor, startTwoFactor, verifySignInCode } from '@/lib/portal/two-factor';

export async function signUpAction(_: FormState, form: FormData): Promise<FormState> {
  const { t } = await portalLang();
  const result = await signUp(
    await getDb(),
    { merchantName: text(form, 'merchantName'), name: text(form, 'name'), email: text(form, 'email'), password: text(form, 'password') },
    await headers(),
  );
  if (result.ok) redirect('/portal/check-email');
  if (result.problem === 'rate_limited') return error(fill(t.auth.rateLimited, { seconds: result.retryAfterSeconds }));
  if (result.problem === 'invalid') return error(t.auth.invalid);
  return error(t.auth.password_problems[result.problem]);
}

export async function verifyEmailAction(_: FormState, form: FormData): Promise<FormState> {
  const { lang } = await portalLang();
  const result = await verifyEmail(text(form, 'token'), await headers());
  if (result.ok) redirect('/portal/settings/api');
  return error(securityCopy(lang).verify[result.problem]);
}

export async function signInAction(_: FormState, form: FormData): Promise<FormState> {
  const { lang, t } = await portalLang();
  const result = await signIn({ email: text(form, 'email'), password: text(form, 'password') }, await headers());
  if (result.ok) redirect(result.twoFactor ? '/portal/sign-in/two-factor' : '/portal/overview');
  if (result.problem === 'rate_limited') return error(fill(t.auth.rateLimited, { seconds: result.retryAfterSeconds }));
  if (result.problem === 'email_not_verified') return error(securityCopy(lang).notVerified);
  return error(t.auth.invalidCredentials);
}

export async function forgotPasswordAction(_: FormState, form: FormData): Promise<FormState> {
  const { lang } = await portalLang();
  const s = securityCopy(lang);
  const result = await requestPasswordReset({ email: text(form, 'email') }, await headers());
  if (result.ok) return ok(s.forgot.sent);
  if (result.problem === 'rate_limited') return error(fill(s.rateLimited, { seconds: result.retryAfterSeconds }));
  return error(s.forgot.invalid);
}

export async function resetPasswordAction(_: FormState, form: FormData): Promise<FormState> {
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  const result = await resetPassword({ token: text(form, 'token'), password: text(form, 'password') });
  if (result.ok) return ok(s.reset.done);
  if (result.problem === 'invalid_token') return error(s.reset.invalid_token);
  return error(t.auth.password_problems[result.problem]);
}

export async function changePasswordAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireAccount();
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  const result = await changePassword(await getDb(), user, { current: text(form, 'currentPassword'), next: text(form, 'newPassword') }, await headers());
  // better-auth replaced the session (as twoFactorChange explains): load the page with the new cookie.
  if (result.ok) redirect('/portal/settings/security?password=changed');
  if (result.problem === 'rate_limited') return error(fill(s.rateLimited, { seconds: result.retryAfterSeconds }));
  if (result.problem === 'wrong_password') return error(s.security.wrongPassword);
  return error(t.auth.password_problems[result.problem]);
}

/** The sign-in's second step (docs/portal.md#accounts): the code opens the session. */
export async function twoFactorSignInAction(_: FormState, form: FormData): Promise<FormState> {
  const { lang } = await portalLang();
  const s = securityCopy(lang).twoFactor;
  const result = await verifySignInCode(text(form, 'code'), await headers());
  if (result.ok) redirect('/portal/overview');
  return error(result.problem === 'expired' ? s.expired : s.wrongCode);
}

export async function startTwoFactorAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireAccount();
  const { lang } = await portalLang();
  const s = securityCopy(lang);
  const result = await startTwoFactor(user, text(form, 'password'), await headers());
  revalidatePath('/portal/settings/security');
  if (!result.ok) {
    if (result.problem === 'rate_limited') return error(fill(s.rateLimited, { seconds: result.retryAfterSeconds }));
    return error(result.problem === 'already_on' ? s.twoFactor.alreadyOn : s.reauth.wrongPassword);
  }
  return ok(s.twoFactor.started, {
    values: [
      { label: s.twoFactor.qr, value: result.totpURI, image: `data:image/svg+xml;base64,${Buffer.from(result.qrSvg).toString('base64')}` },
      { label: s.twoFactor.secret, value: result.secret },
      { label: s.twoFactor.backupCodes, value: result.backupCodes.join('\n') },
    ],
  });
}

type TwoFactorResult<Problem> = { ok: true } | { ok: false; problem: Problem } | { ok: false; problem: 'rate_limited'; retryAfterSeconds: number };

/**
 * A change to the user's second factor: done, Seguridad loaded again saying so (`?factor=on|off`);
 * over the limit, when to try again; otherwise the problem in the user's words. better-auth replaces
 * the session when the factor changes and sets the new cookie on this response: re-rendering the page
 * in this request would read the old, deleted session from its headers and land on the sign-in page,
 * so the browser loads it again with the new cookie.
 */
async function twoFactorChange<Problem extends string>(
  change: (db: Db, user: PortalUser, headers: Headers) => Promise<TwoFactorResult<Problem>>,
  done: 'on' | 'off',
  problemText: (problem: Problem, s: SecurityCopy) => string,
): Promise<FormState> {
  const user = await requireAccount();
  const s = securityCopy((await portalLang()).lang);
  const result = await change(await getDb(), user, await headers());
  if (result.ok) redirect(`/portal/settings/security?factor=${done}`);
  if ('retryAfterSeconds' in result) return error(fill(s.rateLimited, { seconds: result.retryAfterSeconds }));
  return error(problemText(result.problem as Problem, s));
}

export async function confirmTwoFactorAction(_: FormState, form: FormData): Promise<FormState> {
  return twoFactorChange(
    (db, user, h) => confirmTwoFactor(db, user, text(form, 'code'), h, userActor(user, h)),
    'on',
    (problem, s) => (problem === 'not_started' ? s.twoFactor.notStarted : s.twoFactor.wrongCode),
  );
}

export async function disableTwoFactorAction(_: FormState, form: FormData): Promise<FormState> {
  return twoFactorChange(
    (db, user, h) => disableTwoFactor(db, user, { password: text(form, 'password'), code: text(form, 'code') }, h, userActor(user, h)),
    'off',
    (problem, s) => (problem === 'wrong_code' ? s.twoFactor.wrongCode : s.reauth.wrongPassword),
  );
}

/** "Confirme su identidad": opens the 5-minute window for sensitive changes (lib/portal/reauth.ts). */
export async function reauthenticateAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireAccount();
  const { lang } = await portalLang();
  const s = securityCopy(lang);
  const db = await getDb();
  const result = await reauthenticate(db, user, { password: text(form, 'password'), code: text(form, 'code') }, await headers());
  if (result.ok) {
    const until = await reauthenticatedUntil(db, user);
    return ok(until ? fill(s.reauth.until, { time: formatDateTime(until, lang) }) : s.reauth.done);
  }
  if (result.problem === 'rate_limited') return error(fill(s.rateLimited, { seconds: result.retryAfterSeconds }));
  return error(result.problem === 'wrong_code' ? s.twoFactor.wrongCode : s.reauth.wrongPassword);
}

export async function endSessionAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireAccount();
  const { lang } = await portalLang();
  const s = securityCopy(lang).security;
  if (!(await endSession(await getDb(), user, text(form, 'sessionId')))) return error(s.endMissing);
  revalidatePath('/portal/settings/security');
  return ok(s.ended);
}

export async function signOutAction(): Promise<void> {
  await signOut(await headers());
  redirect('/portal/sign-in');
}

export async function signOutEverywhereAction(): Promise<void> {
  await requireAccount();
  await signOutEverywhere(await headers());
  redirect('/portal/sign-in');
}
