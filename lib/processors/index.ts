import { type Db, getDb } from '@/db/client';
import { getMerchant, type MerchantRow } from '@/db/queries/merchants';
import { claimSandboxCharge, findSandboxCharge } from '@/db/queries/sandbox-charges';
import { env } from '@/lib/env';
import type { PaymentProcessor } from './processor';
import { createSandboxProcessor, type SandboxLedger } from './sandbox';
import { isProductionDeployment, openSecret } from './secret-box';
import { createWompiProcessor, type WompiKeys } from './wompi/processor';

export {
  type ChargeResult,
  DECLINE_MESSAGES,
  type DeclineReason,
  type PaymentProcessor,
  type PaymentResult,
  ProcessorRateLimited,
} from './processor';
export { isProductionDeployment } from './secret-box';

let sandbox: PaymentProcessor | undefined;

/** In the database: shared by every instance, kept across restarts. */
function databaseLedger(): SandboxLedger {
  return {
    find: async (reference) => findSandboxCharge(await getDb(), reference),
    claim: async (reference, id) => claimSandboxCharge(await getDb(), reference, id),
  };
}

export function getPaymentProcessor(): PaymentProcessor {
  sandbox ??= createSandboxProcessor({ pendingMs: env().SANDBOX_PENDING_MS, ledger: databaseLedger() });
  return sandbox;
}

/** Sealed together. */
interface WompiSecrets {
  privateKey: string;
  eventsSecret: string;
  integritySecret: string;
}

export function wompiKeysOf(merchant: Pick<MerchantRow, 'id' | 'wompiPublicKey' | 'wompiSecrets'>): WompiKeys | null {
  if (!merchant.wompiPublicKey || !merchant.wompiSecrets) return null;
  const secrets = JSON.parse(openSecret(merchant.wompiSecrets, merchant.id)) as WompiSecrets;
  return { publicKey: merchant.wompiPublicKey, ...secrets };
}

/** Null in production without Wompi keys. */
export function processorOfMerchant(
  merchant: Pick<MerchantRow, 'id' | 'processorType' | 'wompiPublicKey' | 'wompiSecrets'>,
  settings = env(),
): PaymentProcessor | null {
  if (merchant.processorType === 'wompi') {
    const keys = wompiKeysOf(merchant);
    if (keys) return createWompiProcessor(keys, { apiUrl: settings.WOMPI_API_URL });
  }
  return isProductionDeployment(settings) ? null : getPaymentProcessor();
}

/** One processor for all (tests), or a lookup per merchant. */
export type ProcessorSource = PaymentProcessor | ((merchantId: string) => Promise<PaymentProcessor | null>);

export function merchantProcessors(db: Db): ProcessorSource {
  return async (merchantId) => {
    const merchant = await getMerchant(db, merchantId);
    return merchant ? processorOfMerchant(merchant) : null;
  };
}

export async function resolveProcessor(source: ProcessorSource, merchantId: string): Promise<PaymentProcessor | null> {
  return typeof source === 'function' ? source(merchantId) : source;
}
