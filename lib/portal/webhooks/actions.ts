'use server';

// Ajustes → Webhooks' actions and the activity pages' resend (docs/webhooks.md), the signed-in merchant's only.

import { revalidatePath } from 'next/cache';
import { getDb } from '@/db/client';
import { CUSTOMER_PORTAL_COPY } from '@/lib/customers/portal-i18n';
import { fill } from '@/lib/i18n/format';
import { formatDateTime } from '@/lib/portal/i18n';
import { updateMerchant } from '@/lib/merchants/merchants';
import { webhookEventsSchema } from '@/lib/merchants/schemas';
import { findMerchantEvent } from '@/lib/portal/activity';
import { errorState as error, type FormState, formText as text, okState as ok } from '@/lib/portal/form-state';
import type { Db } from '@/db/client';
import type { AuditActor } from '@/lib/audit/record';
import type { PortalCopy } from '@/lib/portal/i18n';
import { type SensitiveChange, tellOwners } from '@/lib/portal/reauth';
import { ownedOrInterrupt, signedIn, signedInRecently } from '@/lib/portal/request';
import {
  reenableWebhook,
  rollWebhookSecret,
  saveAllowedDomains,
  saveWebhookRetries,
  saveWebhookSecret,
  saveWebhookUrl,
  type SettingResult,
} from '@/lib/portal/webhook-settings';
import { resendEvent, sendTestEvent } from '@/lib/webhooks/portal-actions';

/** A setting's answer: the success message, or the explanation followed by the schema's own words. */
function settingState(result: SettingResult, saved: string, problem: string): FormState {
  if (result.ok) {
    revalidatePath('/portal/settings/webhooks');
    return ok(saved);
  }
  return error(problem, result.problems);
}

/** A change of where events go or how they are signed: re-authentication first, every owner told after. */
async function sensitive(change: SensitiveChange, save: (db: Db, merchantId: string, actor: AuditActor) => Promise<SettingResult>, saved: (t: PortalCopy) => string, problem: (t: PortalCopy) => string) {
  const user = await signedInRecently('webhooks');
  if (user.refused) return user.refused;
  const db = await getDb();
  const result = await save(db, user.merchantId, user.actor);
  if (result.ok) await tellOwners(db, user.merchantId, change, user.actor);
  return settingState(result, saved(user.t), problem(user.t));
}

export async function saveWebhookUrlAction(_: FormState, form: FormData): Promise<FormState> {
  return sensitive('webhook_url', (db, merchantId, actor) => saveWebhookUrl(db, merchantId, text(form, 'webhookUrl'), actor), (t) => t.webhooks.urlSaved, (t) => t.webhooks.urlProblem);
}

export async function saveWebhookRetriesAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor, refused } = await signedIn('webhooks');
  if (refused) return refused;
  const on = form.get('webhookRetries') === 'on';
  if ((await saveWebhookRetries(await getDb(), merchantId, on, actor)) === 'needs_url') return error(t.webhooks.retriesNeedUrl);
  revalidatePath('/portal/settings/webhooks');
  return ok(on ? t.webhooks.retriesOn : t.webhooks.retriesOff);
}

export async function reenableWebhookAction(): Promise<FormState> {
  const { merchantId, t, actor, refused } = await signedIn('webhooks');
  if (refused) return refused;
  await reenableWebhook(await getDb(), merchantId, actor);
  revalidatePath('/portal/settings/webhooks');
  return ok(t.webhooks.reenabled);
}

export async function generateSecretAction(): Promise<FormState> {
  return sensitive('webhook_secret', (db, merchantId, actor) => saveWebhookSecret(db, merchantId, undefined, actor), (t) => t.webhooks.generated, (t) => t.webhooks.secretProblem);
}

/** Rolls the secret with both signatures for 24 hours (docs/webhooks.md#rolling-the-secret). */
export async function rollSecretAction(): Promise<FormState> {
  const user = await signedInRecently('webhooks');
  if (user.refused) return user.refused;
  const db = await getDb();
  const { secret, until } = await rollWebhookSecret(db, user.merchantId, user.actor);
  await tellOwners(db, user.merchantId, 'webhook_secret', user.actor);
  revalidatePath('/portal/settings/webhooks');
  return ok(fill(user.t.webhooks.rolled, { until: formatDateTime(until, user.lang) }), { values: [{ label: user.t.webhooks.secretTitle, value: secret }] });
}

export async function saveSecretAction(_: FormState, form: FormData): Promise<FormState> {
  return sensitive('webhook_secret', (db, merchantId, actor) => saveWebhookSecret(db, merchantId, text(form, 'webhookSecret'), actor), (t) => t.webhooks.secretSaved, (t) => t.webhooks.secretProblem);
}

export async function saveDomainsAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor, refused } = await signedIn('webhooks');
  if (refused) return refused;
  return settingState(await saveAllowedDomains(await getDb(), merchantId, text(form, 'allowedDomains'), actor), t.webhooks.domainsSaved, t.webhooks.domainsProblem);
}

/** Which lifecycle events the merchant receives (docs/customers.md). */
export async function saveWebhookEventsAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, lang, actor, refused } = await signedIn('webhooks');
  if (refused) return refused;
  const c = CUSTOMER_PORTAL_COPY[lang];
  const parsed = webhookEventsSchema.safeParse(form.getAll('webhookEvents'));
  if (!parsed.success) return { status: 'error', message: c.eventsProblem, details: parsed.error.issues.map((i) => i.message) };
  await updateMerchant(await getDb(), merchantId, { webhookEvents: parsed.data }, actor);
  revalidatePath('/portal/settings/webhooks');
  return { status: 'ok', message: c.eventsSaved };
}

export async function sendTestEventAction(): Promise<FormState> {
  const { merchantId, t, refused } = await signedIn('events');
  if (refused) return refused;
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
  const { merchantId, t, refused } = await signedIn('events');
  if (refused) return refused;
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
