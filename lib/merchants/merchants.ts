import type { Db } from '@/db/client';
import { getMerchant, getMerchantForUpdate, insertMerchantWithKey, type MerchantRow, updateMerchantRow } from '@/db/queries/merchants';
import { type AuditActor, changesBetween, recordAudit } from '@/lib/audit/record';
import { ApiError } from '@/lib/api/errors';
import { forgetApiKeys } from '@/lib/auth/key-cache';
import { generateApiKey, generateApiSecret, generateWebhookSecret, sha256Hex } from '@/lib/auth/secrets';
import { createId, isId } from '@/lib/ids';
import { eInvoicingColumns, eInvoicingView } from '@/lib/invoices/settings';
import { processorColumns, processorView } from './processor-schema';
import { resumeMerchantRenewals } from './suspension';
import { type CreatedMerchant, createdMerchantSchema, withChargeEvents, type CreateMerchantInput, merchantSchema, type MerchantView, type UpdateMerchantInput } from './schemas';
import { inTransaction } from '@/lib/unit-of-work';

export type { CreatedMerchant, MerchantView };

/** Creates a merchant with its first API key (docs/operations.md#operator-api). */
export async function createMerchant(db: Db, input: CreateMerchantInput, options: { id?: string; actor?: AuditActor } = {}): Promise<CreatedMerchant> {
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
  }, async (tx, row) => {
    const { actor } = options;
    if (!actor) return;
    const changes = { name: row.name, webhookUrl: row.webhookUrl, webhookSecret: row.webhookSecret, allowedDomains: row.allowedDomains };
    await recordAudit(tx, { merchantId: row.id, actor, action: 'merchant.created', target: apiKey, changes });
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
    apiVersion: row.apiVersion,
    webhookRetries: row.webhookRetries,
    webhookDisabledAt: row.webhookDisabledAt?.toISOString() ?? null,
    reminderDays: row.reminderDays,
    graceDays: row.graceDays,
    renewalLadder: row.renewalLadder,
    nit: row.nit,
    eInvoicing: eInvoicingView(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });
}

const pick = (row: MerchantRow, keys: string[]) =>
  Object.fromEntries(keys.map((k) => [k, (row as unknown as Record<string, unknown>)[k]]));

const RETRIES_NEED_URL = 'webhookRetries needs a webhook URL: set webhookUrl first';
const retriesNeedUrl = () => new ApiError('invalid_request', RETRIES_NEED_URL, { details: [{ path: 'webhookRetries', message: RETRIES_NEED_URL }] });

/** What webhook settings change besides themselves (docs/webhooks.md#retries). */
function webhookSwitches(input: Pick<UpdateMerchantInput, 'webhookUrl' | 'webhookRetries' | 'webhookEnabled'>) {
  return {
    ...(input.webhookUrl === null && input.webhookRetries === undefined ? { webhookRetries: false } : {}),
    ...(input.webhookEnabled || input.webhookUrl ? { webhookDisabledAt: null, webhookFailingSince: null } : {}),
  };
}

/**
 * Changes a merchant's settings; with `actor`, its audit entry commits with it. Reactivation moves
 * the plans its suspension held back in the same transaction (docs/operations.md#suspending-a-merchant).
 */
export async function updateMerchant(db: Db, merchantId: string, input: UpdateMerchantInput, actor?: AuditActor, now = new Date()) {
  if (!isId('mch', merchantId)) throw new ApiError('not_found', 'No merchant with this id');
  const { processor, webhookEvents, webhookEnabled, eInvoicing, ...rest } = input;
  // Our Alegra consecutive goes on from where it was when the resolution stays the same.
  const current = eInvoicing?.provider === 'alegra' ? await getMerchant(db, merchantId) : null;
  const patch = {
    ...rest,
    ...(processor ? processorColumns(merchantId, processor) : {}),
    ...(eInvoicing !== undefined ? eInvoicingColumns(merchantId, eInvoicing, current ?? null) : {}),
    ...(webhookEvents ? { webhookEventTypes: webhookEvents } : {}),
    ...webhookSwitches({ webhookUrl: rest.webhookUrl, webhookRetries: rest.webhookRetries, webhookEnabled }),
  };
  const row =
    actor || rest.status === 'ACTIVE'
      ? await inTransaction(db, async (tx) => {
          const before = rest.status === 'ACTIVE' ? await getMerchantForUpdate(tx, merchantId) : await getMerchant(tx, merchantId);
          const after = await updateMerchantRow(tx, merchantId, patch);
          // The failed statement ended the transaction: refuse here, before anything else is sent in it.
          if (after === 'retries_without_url') throw retriesNeedUrl();
          if (before?.status === 'INACTIVE' && after?.status === 'ACTIVE') await resumeMerchantRenewals(tx, merchantId, now);
          if (actor && before && after) {
            const changes = changesBetween(before as Record<string, unknown>, pick(after, Object.keys(patch)));
            if (Object.keys(changes).length > 0) await recordAudit(tx, { merchantId, actor, action: 'merchant.updated', changes });
          }
          return after;
        })
      : await updateMerchantRow(db, merchantId, patch);
  if (row === 'retries_without_url') throw retriesNeedUrl();
  if (!row) throw new ApiError('not_found', 'No merchant with this id');
  // An INACTIVE merchant's keys are refused from the next request on, and a new pinned version
  // applies from the next request on (lib/auth/key-cache.ts).
  if (rest.status || rest.apiVersion) forgetApiKeys(db);
  return merchantView(row);
}
