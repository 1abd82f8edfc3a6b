import type { Db } from '@/db/client';
import { getMerchant, type MerchantRow } from '@/db/queries/merchants';
import { countOpenPlansOffAmount } from '@/db/queries/plans';
import { env } from '@/lib/env';
import type { AuditActor } from '@/lib/audit/record';
import { updateMerchant } from '@/lib/merchants/merchants';
import { expectedPrefixes, processorSettingsSchema } from '@/lib/merchants/processor-schema';
import { isProductionDeployment } from '@/lib/processors/secret-box';
import { WOMPI_MIN_AMOUNT } from '@/lib/processors/wompi/amounts';
import { awaitingRenewals } from '@/lib/settlement/renewal-links';
import { type SaveResult, saveSettings } from './save-settings';

// Ajustes → Procesador (docs/portal.md): what the page shows and what its forms save, through the
// same domain code as the operator API (PATCH /admin/merchants/{id}).

/** The merchant's processor as the portal shows it: its kind, Wompi's public key, and the deployment's kind. */
export function processorOf(merchant: MerchantRow | undefined) {
  return {
    type: merchant?.processorType ?? 'sandbox',
    publicKey: merchant?.processorType === 'wompi' ? merchant.wompiPublicKey : null,
    production: isProductionDeployment(),
  };
}

export async function getProcessorSettings(db: Db, merchantId: string) {
  const processor = processorOf(await getMerchant(db, merchantId));
  return {
    ...processor,
    prefixes: expectedPrefixes(processor.production),
    eventsUrl: `${env().APP_URL}/processors/wompi/events/${merchantId}`,
    /** Open plans whose amount Wompi would refuse: the merchant is warned before and after switching. */
    plansWompiWouldRefuse: await countOpenPlansOffAmount(db, merchantId, WOMPI_MIN_AMOUNT),
  };
}

/** The page's data: the processor settings, the merchant's renewal settings, the renewal links awaiting payment. */
export async function loadProcessorPage(db: Db, merchantId: string) {
  const [settings, merchant, awaiting] = await Promise.all([getProcessorSettings(db, merchantId), getMerchant(db, merchantId), awaitingRenewals(db, merchantId)]);
  return { settings, merchant, awaiting };
}

/** Whether the portal shows its test-mode band: outside production, or while the merchant is not live. */
export function inTestMode(settings: ReturnType<typeof processorOf>): boolean {
  return !settings.production || settings.type === 'sandbox' || Boolean(settings.publicKey?.startsWith('pub_test_'));
}

export async function saveProcessor(db: Db, merchantId: string, input: Record<string, unknown>, actor?: AuditActor): Promise<SaveResult> {
  return saveSettings(
    processorSettingsSchema.safeParse(input),
    'processor',
    (processor) => updateMerchant(db, merchantId, { processor }, actor),
    (error) => error.options.details?.map((d) => `${d.path.replace(/^processor\./, '')}: ${d.message}`) ?? [error.message],
  );
}
