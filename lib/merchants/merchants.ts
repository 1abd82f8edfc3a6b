import type { Db } from '@/db/client';
import { insertMerchantWithKey, type MerchantRow, updateMerchantRow } from '@/db/queries/merchants';
import { ApiError } from '@/lib/api/errors';
import { forgetApiKeys } from '@/lib/auth/key-cache';
import { generateApiKey, generateApiSecret, generateWebhookSecret, sha256Hex } from '@/lib/auth/secrets';
import { createId, isId } from '@/lib/ids';
import { processorColumns, processorView } from './processor-settings';
import { type CreatedMerchant, createdMerchantSchema, withChargeEvents, type CreateMerchantInput, merchantSchema, type MerchantView, type UpdateMerchantInput } from './schemas';

export type { CreatedMerchant, MerchantView };

/**
 * Creates a merchant with its first API key (docs/operations.md#operator-api). A webhook secret is generated when
 * none is given. `id` is for the demo merchant's reserved id only.
 */
export async function createMerchant(db: Db, input: CreateMerchantInput, options: { id?: string } = {}): Promise<CreatedMerchant> {
  const apiKey = generateApiKey();
  const apiSecret = generateApiSecret();
  const webhookSecret = input.webhookSecret ?? generateWebhookSecret();
  const row = await insertMerchantWithKey(db, {
    merchant: {
      id: options.id ?? createId('mch'),
      name: input.name,
      webhookUrl: input.webhookUrl ?? null,
      webhookSecret,
      allowedDomains: input.allowedDomains ?? [],
    },
    apiKey,
    secretHash: sha256Hex(apiSecret),
  });
  // apiSecret is shown this once: only its hash is stored.
  return createdMerchantSchema.parse({ merchantId: row.id, name: row.name, apiKey, apiSecret, webhookSecret });
}

/** The operator's view of a merchant: no secret in it. */
export function merchantView(row: MerchantRow): MerchantView {
  return merchantSchema.parse({
    merchantId: row.id,
    name: row.name,
    status: row.status,
    webhookUrl: row.webhookUrl,
    allowedDomains: row.allowedDomains,
    processor: processorView(row),
    webhookEvents: withChargeEvents(row.webhookEventTypes),
    reminderDays: row.reminderDays,
    graceDays: row.graceDays,
    renewalLadder: row.renewalLadder,
    nit: row.nit,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });
}

export async function updateMerchant(db: Db, merchantId: string, input: UpdateMerchantInput) {
  if (!isId('mch', merchantId)) throw new ApiError('not_found', 'No merchant with this id');
  const { processor, webhookEvents, ...rest } = input;
  const row = await updateMerchantRow(db, merchantId, {
    ...rest,
    ...(processor ? processorColumns(processor) : {}),
    ...(webhookEvents ? { webhookEventTypes: webhookEvents } : {}),
  });
  if (!row) throw new ApiError('not_found', 'No merchant with this id');
  // An INACTIVE merchant's keys are refused from the next request on (lib/auth/key-cache.ts).
  if (rest.status) forgetApiKeys(db);
  return merchantView(row);
}
