import { z } from 'zod';
import { GRACE_DAYS, MERCHANT_STATUSES, REMINDER_DAYS } from '@/db/schema';
import { API_VERSIONS } from '@/lib/api-versions';
import { CHARGE_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@/lib/webhooks/payload';
import { eInvoicingSettingsSchema, eInvoicingViewSchema } from '@/lib/invoices/settings';
import { processorSettingsSchema } from './processor-schema';

// Merchant settings as the operator API and the portal accept them (docs/webhooks.md#delivery, docs/checkout.md#embedding, docs/operations.md#operator-api).

/** Why a webhook URL is refused, or null (docs/webhooks.md#webhook-settings: https only). */
function webhookUrlProblem(value: string): string | null {
  if (!URL.canParse(value)) return 'must be an absolute URL';
  const url = new URL(value);
  if (url.protocol !== 'https:') return 'must begin with https:// (HTTP endpoints are rejected)';
  if (!url.hostname) return 'must name a host';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (value.includes('#')) return 'must not contain a fragment (#)';
  return null;
}

export const webhookUrlSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const webhookSecretSchema = z
  .string({ error: 'must be a string' })
  .min(32, 'must be at least 32 characters')
  .max(256, 'must be at most 256 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Why an allowedDomains entry (`host[:port]`, docs/checkout.md#embedding) is refused, or null. */
export function allowedDomainProblem(entry: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) return 'must not include a scheme such as https://';
  if (/[/?#\s@\\]/.test(entry)) return 'must be host[:port] only, without a path, query or spaces';
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(entry);
  const host = match?.[1] ?? '';
  const port = match?.[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return 'has a port outside 1..65535';
  if (host.includes(':') || host.startsWith('[')) return 'IPv6 addresses cannot be matched by browsers here; use a DNS name';
  const wildcard = host.startsWith('*.');
  const name = wildcard ? host.slice(2) : host;
  if (IPV4.test(name)) return wildcard ? 'a wildcard cannot apply to an IP address' : null;
  if (name.length === 0 || name.length > 253) return 'must name a host';
  const labels = name.split('.');
  if (!labels.every((label) => DNS_LABEL.test(label))) return 'is not a valid host name';
  if (/^\d+$/.test(labels.at(-1) ?? '')) return 'is not a valid host name or IPv4 address';
  if (wildcard && labels.length < 2) return 'a wildcard must stand before at least two labels, as in *.example.com';
  return null;
}

export const allowedDomainsSchema = z
  .array(z.string({ error: 'must be a string' }).trim().toLowerCase(), { error: 'must be an array of strings' })
  .max(50, 'at most 50 entries')
  .superRefine((entries, ctx) => {
    entries.forEach((entry, index) => {
      const problem = allowedDomainProblem(entry);
      if (problem) ctx.addIssue({ code: 'custom', path: [index], message: `"${entry}" ${problem}` });
    });
  })
  .transform((entries) => [...new Set(entries)]);

/** The events a merchant receives: the charge events always, plus the lifecycle events listed. */
export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }), { error: 'must be an array of event names' })
  .max(WEBHOOK_EVENT_TYPES.length * 2, 'lists too many events')
  .transform((chosen) => withChargeEvents(chosen));

export function withChargeEvents(chosen: readonly string[]): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => (CHARGE_EVENT_TYPES as readonly string[]).includes(type) || chosen.includes(type));
}

const wholeDays = (bounds: { min: number; max: number }) =>
  z
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(bounds.min, `must be between ${bounds.min} and ${bounds.max}`)
    .max(bounds.max, `must be between ${bounds.min} and ${bounds.max}`);

/** The renewal settings (docs/billing.md#renewal-links), as the operator API and the portal take them. */
export const renewalSettingsSchema = z.object({
  reminderDays: wholeDays(REMINDER_DAYS).describe('Days before a due date the renewal link is e-mailed (plans collected by link)'),
  graceDays: wholeDays(GRACE_DAYS).describe('Days an unpaid period stays ACTIVE before the plan is cancelled with reason `unpaid`'),
  renewalLadder: z
    .boolean({ error: 'must be true or false' })
    .describe("When a card or Nequi renewal's last retry fails, send the renewal link and grant grace before cancelling"),
});

const nameSchema = z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/** The merchant's NIT as printed on receipts (docs/customers.md#receipts): digits, and an optional check digit after a hyphen. */
const nitSchema = z
  .string({ error: 'must be a string' })
  .regex(/^[0-9]{6,10}(-[0-9])?$/, 'must be a NIT: 6 to 10 digits, optionally a hyphen and its check digit (900123456-7)')
  .describe("The merchant's NIT, printed on its customers' receipts; null removes it");

/** The API version a merchant's requests and webhooks use when a request names none (docs/api.md#versioning). */
const apiVersionSchema = z
  .enum(API_VERSIONS, { error: `must be one of the API versions: ${API_VERSIONS.join(', ')}` })
  .describe('The API version used when a request sends no ServicePay-Version header, and for webhook bodies');

const UPDATABLE = [
  'name',
  'status',
  'webhookUrl',
  'webhookSecret',
  'allowedDomains',
  'processor',
  'webhookEvents',
  'reminderDays',
  'graceDays',
  'renewalLadder',
  'nit',
  'apiVersion',
  'webhookRetries',
  'webhookEnabled',
  'eInvoicing',
];

export const createMerchantBodySchema = z
  .object({
    name: nameSchema,
    webhookUrl: webhookUrlSchema.optional(),
    webhookSecret: webhookSecretSchema.optional(),
    allowedDomains: allowedDomainsSchema.optional(),
  })
  .meta({ id: 'CreateMerchantRequest' });

export const updateMerchantBodySchema = z
  .object({
    name: nameSchema.optional(),
    status: z.enum(['ACTIVE', 'INACTIVE'], { error: 'must be ACTIVE or INACTIVE' }).optional(),
    webhookUrl: webhookUrlSchema.nullable().optional(),
    webhookSecret: webhookSecretSchema.optional(),
    allowedDomains: allowedDomainsSchema.optional(),
    processor: processorSettingsSchema.optional(),
    webhookEvents: webhookEventsSchema.optional(),
    ...renewalSettingsSchema.partial().shape,
    nit: nitSchema.nullable().optional(),
    apiVersion: apiVersionSchema.optional(),
    webhookRetries: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .describe('Retry failed deliveries for about 3 days (docs/webhooks.md#retries); needs a webhook URL. Off by default: one attempt'),
    webhookEnabled: z
      .literal(true, { error: 'can only be true: re-enables an endpoint disabled after 3 days of failures' })
      .optional()
      .describe('true re-enables a webhook endpoint disabled after 3 days of failed deliveries'),
    eInvoicing: eInvoicingSettingsSchema.optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    message: `send at least one of ${UPDATABLE.join(', ')}`,
  })
  .meta({ id: 'UpdateMerchantRequest' });

export type CreateMerchantInput = z.infer<typeof createMerchantBodySchema>;
export type UpdateMerchantInput = z.infer<typeof updateMerchantBodySchema>;

// The replies: lib/merchants/merchants.ts builds each by parsing through these, and the OpenAPI
// document publishes them.

export const createdMerchantSchema = z
  .object({
    merchantId: z.string().describe('mch_…'),
    name: z.string(),
    apiKey: z.string().describe('pk_test_… : the public half of the credentials'),
    apiSecret: z.string().describe('sk_test_… : shown this once; only its hash is stored'),
    webhookSecret: z.string().describe('The one given, or a generated whsec_…'),
  })
  .meta({ id: 'CreatedMerchant' });

const isoMs = z.iso.datetime({ precision: 3 }).describe('ISO 8601 UTC with milliseconds');

const merchantProcessorSchema = z
  .object({
    type: z.enum(['sandbox', 'wompi']).describe("`sandbox` for the built-in one; `wompi` for the merchant's own Wompi account"),
    publicKey: z.string().nullable().describe("The Wompi public key; null for the sandbox. Secrets are never shown"),
  })
  .meta({ id: 'MerchantProcessor', description: "The merchant's processor: its type and public key only" });

export const merchantSchema = z
  .object({
    merchantId: z.string(),
    name: z.string(),
    status: z.enum(MERCHANT_STATUSES).describe('An INACTIVE merchant\'s keys are refused with 401'),
    webhookUrl: z.string().nullable(),
    allowedDomains: z.array(z.string()),
    processor: merchantProcessorSchema,
    webhookEvents: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .describe('The events sent to the webhook URL: the four charge events always, lifecycle events once chosen'),
    ...renewalSettingsSchema.shape,
    nit: z.string().nullable().describe("The NIT printed on the merchant's receipts"),
    apiVersion: z.enum(API_VERSIONS).describe('The pinned API version: requests without ServicePay-Version, and webhook bodies'),
    webhookRetries: z.boolean().describe('Whether failed deliveries are retried for about 3 days'),
    webhookDisabledAt: isoMs.nullable().describe('When the endpoint was disabled after 3 days of failed deliveries; null while enabled'),
    eInvoicing: eInvoicingViewSchema,
    createdAt: isoMs,
    updatedAt: isoMs,
  })
  .meta({ id: 'Merchant', description: 'A merchant as the operator sees it; no secret in it' });

export type CreatedMerchant = z.infer<typeof createdMerchantSchema>;
export type MerchantView = z.infer<typeof merchantSchema>;
