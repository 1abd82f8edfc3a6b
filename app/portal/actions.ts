'use server';

// The portal's server actions. Next refuses an action posted from another origin (CSRF), and
// each one acts only on the signed-in user's merchant.

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { env } from '@/lib/env';
import { signIn, signOut, signOutEverywhere, signUp } from '@/lib/portal/accounts';
import { findMerchantEvent } from '@/lib/portal/activity';
import { createKey, revokeKey } from '@/lib/portal/api-keys';
import { savePinnedVersion } from '@/lib/portal/api-version';
import { curlExample } from '@/lib/portal/curl';
import type { FormState } from '@/lib/portal/form-state';
import { ownedOrInterrupt, portalLang, requireUser, signedIn } from '@/lib/portal/request';
import {
  reenableWebhook,
  saveAllowedDomains,
  saveWebhookRetries,
  saveWebhookSecret,
  saveWebhookUrl,
  type SettingResult,
} from '@/lib/portal/webhook-settings';
import { resendEvent, sendTestEvent } from '@/lib/webhooks/portal-actions';

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};
const ok = (message: string, more: Partial<FormState> = {}): FormState => ({ status: 'ok', message, ...more });
const error = (message: string, details?: string[]): FormState => ({ status: 'error', message, details });

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

export async function createKeyAction(): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  const { apiKey, apiSecret } = await createKey(await getDb(), merchantId, actor);
  revalidatePath('/portal/settings/api');
  return ok(t.api.created_ok, {
    values: [
      { label: t.api.key, value: apiKey },
      { label: t.api.secret, value: apiSecret },
      { label: t.api.example, value: curlExample(env().APP_URL, apiKey, apiSecret) },
    ],
  });
}

export async function revokeKeyAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  const result = await revokeKey(await getDb(), merchantId, text(form, 'key'), actor);
  revalidatePath('/portal/settings/api');
  if (!result) return error(t.api.revoke_missing);
  return ok(result.activeLeft === 0 ? t.api.revoked_last : t.api.revoked_ok);
}

/** A setting's answer: the success message, or the explanation followed by the schema's own words. */
function settingState(result: SettingResult, saved: string, problem: string): FormState {
  if (result.ok) {
    revalidatePath('/portal/settings/webhooks');
    return ok(saved);
  }
  return error(problem, result.problems);
}

export async function saveApiVersionAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  if (!(await savePinnedVersion(await getDb(), merchantId, text(form, 'apiVersion'), actor))) return error(t.api.versionProblem);
  revalidatePath('/portal/settings/api');
  return ok(t.api.versionSaved);
}

export async function saveWebhookUrlAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  return settingState(await saveWebhookUrl(await getDb(), merchantId, text(form, 'webhookUrl'), actor), t.webhooks.urlSaved, t.webhooks.urlProblem);
}

export async function saveWebhookRetriesAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  const on = form.get('webhookRetries') === 'on';
  if ((await saveWebhookRetries(await getDb(), merchantId, on, actor)) === 'needs_url') return error(t.webhooks.retriesNeedUrl);
  revalidatePath('/portal/settings/webhooks');
  return ok(on ? t.webhooks.retriesOn : t.webhooks.retriesOff);
}

export async function reenableWebhookAction(): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  await reenableWebhook(await getDb(), merchantId, actor);
  revalidatePath('/portal/settings/webhooks');
  return ok(t.webhooks.reenabled);
}

export async function generateSecretAction(): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  return settingState(await saveWebhookSecret(await getDb(), merchantId, undefined, actor), t.webhooks.generated, t.webhooks.secretProblem);
}

export async function saveSecretAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  return settingState(await saveWebhookSecret(await getDb(), merchantId, text(form, 'webhookSecret'), actor), t.webhooks.secretSaved, t.webhooks.secretProblem);
}

export async function saveDomainsAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor } = await signedIn();
  return settingState(await saveAllowedDomains(await getDb(), merchantId, text(form, 'allowedDomains'), actor), t.webhooks.domainsSaved, t.webhooks.domainsProblem);
}

export async function sendTestEventAction(): Promise<FormState> {
  const { merchantId, t } = await signedIn();
  let reply;
  try {
    reply = await sendTestEvent(merchantId);
  } catch {
    return error(t.webhooks.testNoUrl);
  }
  const message =
    reply.statusCode === null
      ? fill(t.webhooks.testNoReply, { error: reply.error ?? '', latency: reply.latencyMs })
      : fill(t.webhooks.testReply, { status: reply.statusCode, latency: reply.latencyMs });
  const values = reply.responseExcerpt ? [{ label: t.webhooks.replyBody, value: reply.responseExcerpt, copy: false }] : undefined;
  return { status: reply.ok ? 'ok' : 'error', message, values };
}

export async function resendEventAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t } = await signedIn();
  const eventId = text(form, 'eventId');
  // Another merchant's event (a forged form; the page never offers one) is the 403, a missing one
  // the 404; nothing is sent.
  const event = await ownedOrInterrupt(findMerchantEvent(await getDb(), merchantId, eventId));
  try {
    await resendEvent(merchantId, event.id);
  } catch (cause) {
    return error(fill(t.activity.resendFailed, { error: cause instanceof Error ? cause.message : String(cause) }));
  }
  revalidatePath(`/portal/activity/plans/${event.planId}`);
  revalidatePath(`/portal/activity/events/${event.id}`);
  return ok(t.activity.resent);
}
