import { z } from 'zod';
import type { MerchantRow } from '@/db/queries/merchants';
import { ApiError } from '@/lib/api/errors';
import { isProductionDeployment, sealSecret } from '@/lib/processors/secret-box';

// A merchant's processor (docs/processors.md): the built-in sandbox, or its own Wompi account.
// Key prefixes must match the deployment (test keys outside production, prod keys in it); the
// three secrets are sealed together and never shown again, only the public key is.

const key = (name: string) =>
  z.string({ error: 'must be a string' }).trim().min(1, 'is required').max(512, 'must be at most 512 characters').regex(/^[\x21-\x7e]+$/, `must be the ${name} exactly as Wompi shows it`);

export const processorSettingsSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('sandbox') }),
    z.object({
      type: z.literal('wompi'),
      publicKey: key('public key'),
      privateKey: key('private key'),
      eventsSecret: key('events secret'),
      integritySecret: key('integrity secret'),
    }),
  ],
  { error: 'must be { "type": "sandbox" } or { "type": "wompi", publicKey, privateKey, eventsSecret, integritySecret }' },
);

type ProcessorSettings = z.infer<typeof processorSettingsSchema>;

const PREFIXES = {
  test: { publicKey: 'pub_test_', privateKey: 'prv_test_', eventsSecret: 'test_events_', integritySecret: 'test_integrity_' },
  prod: { publicKey: 'pub_prod_', privateKey: 'prv_prod_', eventsSecret: 'prod_events_', integritySecret: 'prod_integrity_' },
} as const;

/** The prefixes this deployment takes: production keys in production, test keys anywhere else. */
export function expectedPrefixes(production = isProductionDeployment()) {
  return production ? PREFIXES.prod : PREFIXES.test;
}

/** The columns a processor setting writes, after checking each key's prefix (400 naming the field). */
export function processorColumns(merchantId: string, settings: ProcessorSettings, field = 'processor') {
  const production = isProductionDeployment();
  if (settings.type === 'sandbox') {
    // Production never takes a payment through the built-in sandbox (docs/processors.md#deployments).
    if (production) {
      const message = 'the built-in sandbox processor is not available in production; set the merchant\'s Wompi keys';
      throw new ApiError('invalid_request', `${field}.type: ${message}`, { details: [{ path: `${field}.type`, message }] });
    }
    return { processorType: 'sandbox' as const, wompiPublicKey: null, wompiSecrets: null };
  }
  const prefixes = expectedPrefixes(production);
  const details = (Object.keys(prefixes) as (keyof typeof prefixes)[])
    .filter((name) => !settings[name].startsWith(prefixes[name]))
    .map((name) => ({
      path: `${field}.${name}`,
      message: `must begin with ${prefixes[name]} in this ${production ? 'production' : 'sandbox'} deployment`,
    }));
  if (details.length) {
    const message = details.length === 1 ? `${details[0]!.path}: ${details[0]!.message}` : `${details.length} fields are invalid: ${details.map((d) => d.path).join(', ')}`;
    throw new ApiError('invalid_request', message, { details });
  }
  const { privateKey, eventsSecret, integritySecret } = settings;
  return {
    processorType: 'wompi' as const,
    wompiPublicKey: settings.publicKey,
    wompiSecrets: sealSecret(JSON.stringify({ privateKey, eventsSecret, integritySecret }), merchantId),
  };
}

/** What replies show of a merchant's processor: its type and public key, never a secret. */
export function processorView(row: Pick<MerchantRow, 'processorType' | 'wompiPublicKey'>): { type: 'sandbox' | 'wompi'; publicKey: string | null } {
  return { type: row.processorType, publicKey: row.processorType === 'wompi' ? row.wompiPublicKey : null };
}
