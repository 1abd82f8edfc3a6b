import { z } from 'zod';
import type { MerchantRow } from '@/db/queries/merchants';
import type { EINVOICE_IVA_RATES } from '@/db/schema';
import type { ProviderSettings } from '@/lib/einvoicing';
import type { Resolution } from '@/lib/einvoicing/draft';
import type { IvaRate } from '@/lib/einvoicing/money';
import { openSecret, sealSecret } from '@/lib/processors/secret-box';

// A merchant's e-invoicing settings (docs/einvoicing.md#settings), as the operator API and the
// portal take them: Factus or Alegra credentials, Alegra's DIAN resolution and the
// IVA rate, or null to turn it off. The credentials and the resolution are sealed together as the
// Wompi keys are; replies show `{ provider, iva }` only.

const credential = (what: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'is required')
    .max(512, 'must be at most 512 characters')
    .regex(/^[\x20-\x7e]+$/, `must be the ${what} exactly as the provider shows it`);

export const ivaSchema = z
  .union([z.literal(19), z.literal(5), z.literal(0), z.literal('excluded')], { error: 'must be 19, 5, 0 (exempt) or "excluded"' })
  .describe('IVA included in every price: 19, 5, 0 (exempt) or "excluded" (no IVA line)');

const bogotaDay = z
  .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'is not a calendar date');

const consecutive = z
  .number({ error: (i) => (i.input === undefined ? 'is required' : 'must be a number') })
  .int('must be a whole number')
  .min(1, 'must be 1 or more')
  .max(9_999_999_999, 'must be at most 9999999999');

const resolutionSchema = z
  .object(
    {
      number: z.string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') }).regex(/^\d{1,20}$/, "must be the resolution's number, digits only"),
      prefix: z.string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') }).regex(/^[A-Za-z0-9]{0,4}$/, 'must be up to 4 letters and digits'),
      from: consecutive,
      to: consecutive,
      startDate: bogotaDay,
      endDate: bogotaDay,
      technicalKey: z
        .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
        .regex(/^[0-9a-f]{40}$/, "must be the range's technical key: exactly 40 lower-case hex characters"),
    },
    { error: (i) => (i.input === undefined ? 'is required' : 'must be an object') },
  )
  .superRefine((r, ctx) => {
    if (r.to < r.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be at least from' });
    if (r.endDate < r.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must be on or after startDate' });
  })
  .describe('The DIAN numbering resolution Alegra documents are numbered in');

const factusSchema = z
  .object({
    provider: z.literal('factus'),
    clientId: credential('client id'),
    clientSecret: credential('client secret'),
    username: credential('user name'),
    password: credential('password'),
    numberingRangeId: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .optional()
      .describe("Factus' id of the numbering range to use; needed only when the account has several active ranges"),
    iva: ivaSchema,
  })
  .meta({ id: 'FactusSettings' });

const alegraSchema = z
  .object({
    provider: z.literal('alegra'),
    token: credential('token'),
    companyId: credential('company id'),
    resolution: resolutionSchema,
    iva: ivaSchema,
  })
  .meta({ id: 'AlegraSettings' });

export const eInvoicingSettingsSchema = z
  .discriminatedUnion('provider', [factusSchema, alegraSchema], {
    error: 'must be null, { "provider": "factus", clientId, clientSecret, username, password, iva } or { "provider": "alegra", token, companyId, resolution, iva }',
  })
  .nullable()
  .describe('Electronic invoices to DIAN through the merchant\'s own provider (docs/einvoicing.md#settings); null turns it off');

export type EInvoicingSettings = NonNullable<z.infer<typeof eInvoicingSettingsSchema>>;

type SealedSettings = ProviderSettings & { resolution?: Resolution };

type IvaColumn = (typeof EINVOICE_IVA_RATES)[number];

export const ivaColumn = (iva: IvaRate): IvaColumn => String(iva) as IvaColumn;
export const ivaOfColumn = (column: IvaColumn): IvaRate => (column === 'excluded' ? 'excluded' : (Number(column) as IvaRate));

/** The columns a setting writes; `nextNumber` is where Alegra numbering starts when the resolution is new. */
export function eInvoicingColumns(merchantId: string, settings: EInvoicingSettings | null, before: Pick<MerchantRow, 'einvoiceSecrets' | 'einvoiceNextNumber'> | null) {
  if (!settings) return { einvoiceProvider: null, einvoiceIva: null, einvoiceSecrets: null };
  const { iva, ...rest } = settings;
  const sealed: SealedSettings =
    rest.provider === 'alegra'
      ? { provider: 'alegra', token: rest.token, companyId: rest.companyId, resolution: rest.resolution }
      : { provider: 'factus', clientId: rest.clientId, clientSecret: rest.clientSecret, username: rest.username, password: rest.password, numberingRangeId: rest.numberingRangeId ?? null };
  return {
    einvoiceProvider: rest.provider,
    einvoiceIva: ivaColumn(iva),
    einvoiceSecrets: sealSecret(JSON.stringify(sealed), merchantId),
    ...(rest.provider === 'alegra' ? { einvoiceNextNumber: nextNumberFor(merchantId, rest.resolution, before) } : {}),
  };
}

/**
 * Where our consecutive goes on: the same resolution keeps counting (a number is never given
 * twice: DIAN would answer the first document for it), a new one starts at its `from`.
 */
function nextNumberFor(merchantId: string, resolution: Resolution, before: Pick<MerchantRow, 'einvoiceSecrets' | 'einvoiceNextNumber'> | null): number {
  const previous = before?.einvoiceSecrets ? openSettings(before.einvoiceSecrets, merchantId).resolution : undefined;
  const same = previous && previous.number === resolution.number && previous.prefix === resolution.prefix;
  if (same && before?.einvoiceNextNumber) return Math.max(before.einvoiceNextNumber, resolution.from);
  return resolution.from;
}

export function openSettings(sealed: string, merchantId: string): SealedSettings {
  return JSON.parse(openSecret(sealed, merchantId)) as SealedSettings;
}

/** What replies show: the provider and the rate, never a credential. */
export function eInvoicingView(row: Pick<MerchantRow, 'einvoiceProvider' | 'einvoiceIva'>): { provider: 'factus' | 'alegra'; iva: IvaRate } | null {
  if (!row.einvoiceProvider || !row.einvoiceIva) return null;
  return { provider: row.einvoiceProvider, iva: ivaOfColumn(row.einvoiceIva) };
}

export const eInvoicingViewSchema = z
  .object({
    provider: z.enum(['factus', 'alegra']),
    iva: z.union([z.literal(19), z.literal(5), z.literal(0), z.literal('excluded')]),
  })
  .nullable()
  .meta({ id: 'MerchantEInvoicing', description: 'Electronic invoicing: the provider and the IVA rate, never a credential; null when off' });
