import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { updateMerchant } from '@/lib/merchants/merchants';
import { generateWebhookSecret } from '@/lib/auth/secrets';
import { allowedDomainsSchema, webhookSecretSchema, webhookUrlSchema } from '@/lib/merchants/schemas';

// Settings → Webhooks (docs/webhooks.md#webhook-settings, docs/webhooks.md#delivery, docs/checkout.md#embedding), with the operator API's own rules. Each
// change answers the problem in the schema's words, or null; the page adds the explanation.

export type SettingResult = { ok: true } | { ok: false; problems: string[] };

function problemsOf(issues: { path: PropertyKey[]; message: string }[]): SettingResult {
  return { ok: false, problems: issues.map((i) => i.message) };
}

export async function getWebhookSettings(db: Db, merchantId: string) {
  const row = await getMerchant(db, merchantId);
  if (!row) throw new Error(`merchant ${merchantId} not found`);
  return { name: row.name, webhookUrl: row.webhookUrl, webhookSecret: row.webhookSecret, allowedDomains: row.allowedDomains, webhookEvents: row.webhookEventTypes };
}

/** Sets the webhook URL (https only); an empty value removes it (events are then only recorded). */
export async function saveWebhookUrl(db: Db, merchantId: string, value: string): Promise<SettingResult> {
  if (value.trim() === '') {
    await updateMerchant(db, merchantId, { webhookUrl: null });
    return { ok: true };
  }
  const parsed = webhookUrlSchema.safeParse(value);
  if (!parsed.success) return problemsOf(parsed.error.issues);
  await updateMerchant(db, merchantId, { webhookUrl: parsed.data });
  return { ok: true };
}

/** Sets the webhook secret the merchant chose (at least 32 characters), or a generated one when none is given. */
export async function saveWebhookSecret(db: Db, merchantId: string, value?: string): Promise<SettingResult> {
  const parsed = webhookSecretSchema.safeParse(value ?? generateWebhookSecret());
  if (!parsed.success) return problemsOf(parsed.error.issues);
  await updateMerchant(db, merchantId, { webhookSecret: parsed.data });
  return { ok: true };
}

/** Sets the widget's allowed domains from a text area: one entry per line (commas also separate). */
export async function saveAllowedDomains(db: Db, merchantId: string, text: string): Promise<SettingResult> {
  const entries = text
    .split(/[\n,]/)
    .map((e) => e.trim())
    .filter(Boolean);
  const parsed = allowedDomainsSchema.safeParse(entries);
  if (!parsed.success) return problemsOf(parsed.error.issues);
  await updateMerchant(db, merchantId, { allowedDomains: parsed.data });
  return { ok: true };
}
