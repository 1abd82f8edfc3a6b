import type { Db } from '@/db/client';
import { getMerchant, getMerchantForUpdate, updateMerchantRow } from '@/db/queries/merchants';
import { ApiError } from '@/lib/api/errors';
import { type AuditActor, maskSecrets, recordAudit } from '@/lib/audit/record';
import { inTransaction } from '@/lib/unit-of-work';
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
  return {
    name: row.name,
    webhookUrl: row.webhookUrl,
    webhookSecret: row.webhookSecret,
    allowedDomains: row.allowedDomains,
    webhookEvents: row.webhookEventTypes,
    webhookRetries: row.webhookRetries,
    webhookDisabledAt: row.webhookDisabledAt,
  };
}

/** Turns retries on or off (docs/webhooks.md#retries); on needs a URL. */
export async function saveWebhookRetries(db: Db, merchantId: string, on: boolean, actor?: AuditActor): Promise<'saved' | 'needs_url'> {
  try {
    await updateMerchant(db, merchantId, { webhookRetries: on }, actor);
    return 'saved';
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_request') return 'needs_url';
    throw error;
  }
}

/** Re-enables an endpoint disabled after 3 days of failures: its count of failing days starts afresh. */
export async function reenableWebhook(db: Db, merchantId: string, actor?: AuditActor): Promise<void> {
  await updateMerchant(db, merchantId, { webhookEnabled: true }, actor);
}

/** Sets the webhook URL (https only); an empty value removes it (events are then only recorded, and retries go off). */
export async function saveWebhookUrl(db: Db, merchantId: string, value: string, actor?: AuditActor): Promise<SettingResult> {
  if (value.trim() === '') {
    await updateMerchant(db, merchantId, { webhookUrl: null }, actor);
    return { ok: true };
  }
  const parsed = webhookUrlSchema.safeParse(value);
  if (!parsed.success) return problemsOf(parsed.error.issues);
  await updateMerchant(db, merchantId, { webhookUrl: parsed.data }, actor);
  return { ok: true };
}

/** Sets the webhook secret the merchant chose (at least 32 characters), or a generated one when none is given. */
export async function saveWebhookSecret(db: Db, merchantId: string, value?: string, actor?: AuditActor): Promise<SettingResult> {
  const parsed = webhookSecretSchema.safeParse(value ?? generateWebhookSecret());
  if (!parsed.success) return problemsOf(parsed.error.issues);
  await updateMerchant(db, merchantId, { webhookSecret: parsed.data }, actor);
  await updateMerchantRow(db, merchantId, { webhookSecretPrevious: null, webhookSecretRolledUntil: null });
  return { ok: true };
}

export const WEBHOOK_SECRET_ROLL_MS = 24 * 3600_000;

/**
 * Rolls the signing secret without a gap (docs/webhooks.md#rolling-the-secret): a new secret is
 * made, and for 24 hours every delivery carries X-Webhook-Signature with the previous one and
 * X-Webhook-Signature-Next with the new one. Answers the new secret and when the roll ends.
 */
export async function rollWebhookSecret(db: Db, merchantId: string, actor?: AuditActor, now: Date = new Date()): Promise<{ secret: string; until: Date }> {
  const secret = generateWebhookSecret();
  const until = new Date(now.getTime() + WEBHOOK_SECRET_ROLL_MS);
  await inTransaction(db, async (tx) => {
    const merchant = await getMerchantForUpdate(tx, merchantId);
    if (!merchant) throw new ApiError('not_found', 'No such merchant');
    // A roll started during another keeps signing with the secret receivers had before both.
    const inRoll = merchant.webhookSecretPrevious && merchant.webhookSecretRolledUntil && merchant.webhookSecretRolledUntil > now;
    const previous = inRoll ? merchant.webhookSecretPrevious! : merchant.webhookSecret;
    await updateMerchantRow(tx, merchantId, { webhookSecret: secret, webhookSecretPrevious: previous, webhookSecretRolledUntil: until });
    if (actor) {
      const changes = maskSecrets({ webhookSecret: { from: merchant.webhookSecret, to: secret } });
      await recordAudit(tx, { merchantId, actor, action: 'webhook.secret_rolled', changes: { ...changes, rolledUntil: until.toISOString() } });
    }
  });
  return { secret, until };
}

/** Sets the widget's allowed domains from a text area: one entry per line (commas also separate). */
export async function saveAllowedDomains(db: Db, merchantId: string, text: string, actor?: AuditActor): Promise<SettingResult> {
  const entries = text
    .split(/[\n,]/)
    .map((e) => e.trim())
    .filter(Boolean);
  const parsed = allowedDomainsSchema.safeParse(entries);
  if (!parsed.success) return problemsOf(parsed.error.issues);
  await updateMerchant(db, merchantId, { allowedDomains: parsed.data }, actor);
  return { ok: true };
}
