import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { countOpenPlansOffAmount } from '@/db/queries/plans';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import type { AuditActor } from '@/lib/audit/record';
import { updateMerchant } from '@/lib/merchants/merchants';
import { expectedPrefixes, processorSettingsSchema } from '@/lib/merchants/processor-schema';
import { isProductionDeployment } from '@/lib/processors/secret-box';
import { WOMPI_MIN_AMOUNT } from '@/lib/processors/wompi/amounts';
import { awaitingRenewals } from '@/lib/settlement/renewal-links';

// Ajustes → Procesador (docs/portal.md): what the page shows and what its forms save, through the
// same domain code as the operator API (PATCH /admin/merchants/{id}).

export async function getProcessorSettings(db: Db, merchantId: string) {
  const merchant = await getMerchant(db, merchantId);
  const production = isProductionDeployment();
  return {
    type: merchant?.processorType ?? 'sandbox',
    publicKey: merchant?.processorType === 'wompi' ? merchant.wompiPublicKey : null,
    production,
    prefixes: expectedPrefixes(production),
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
export function inTestMode(settings: Pick<Awaited<ReturnType<typeof getProcessorSettings>>, 'type' | 'publicKey' | 'production'>): boolean {
  return !settings.production || settings.type === 'sandbox' || Boolean(settings.publicKey?.startsWith('pub_test_'));
}

type ProcessorSaveResult = { ok: true } | { ok: false; problems: string[] };

export async function saveProcessor(db: Db, merchantId: string, input: Record<string, unknown>, actor?: AuditActor): Promise<ProcessorSaveResult> {
  const parsed = processorSettingsSchema.safeParse(input);
  if (!parsed.success) {
    // One problem per field: the first one found.
    const byField = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.') || 'processor';
      if (!byField.has(field)) byField.set(field, `${field}: ${issue.message}`);
    }
    return { ok: false, problems: [...byField.values()] };
  }
  try {
    await updateMerchant(db, merchantId, { processor: parsed.data }, actor);
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_request') {
      return { ok: false, problems: error.options.details?.map((d) => `${d.path.replace(/^processor\./, '')}: ${d.message}`) ?? [error.message] };
    }
    throw error;
  }
}
