import type { Db } from '@/db/client';
import { type InvoiceRow, listInvoices } from '@/db/queries/invoices';
import { getMerchant } from '@/db/queries/merchants';
import { INVOICE_STATUSES, type InvoiceStatus } from '@/db/schema';
import type { AuditActor } from '@/lib/audit/record';
import { createEInvoiceProvider } from '@/lib/einvoicing';
import { EInvoiceAuthError } from '@/lib/einvoicing/provider';
import { eInvoicingSettingsSchema, eInvoicingView, openSettings } from '@/lib/invoices/settings';
import { updateMerchant } from '@/lib/merchants/merchants';
import { type SaveResult, saveSettings } from './save-settings';

// Settings → Facturación and the Invoices page (docs/portal.md): what they show, saving the
// settings through the same checks as the operator API, and the "Probar" check, which asks the
// provider whether the saved credentials work and issues nothing.

export async function loadEInvoicingSettings(db: Db, merchantId: string) {
  const merchant = await getMerchant(db, merchantId);
  const resolution = merchant?.einvoiceProvider === 'alegra' && merchant.einvoiceSecrets ? (openSettings(merchant.einvoiceSecrets, merchant.id).resolution ?? null) : null;
  return { view: merchant ? eInvoicingView(merchant) : null, resolution };
}

/** Saves (or with null, turns off) the settings; each refused field as `field: message`. */
export async function saveEInvoicing(db: Db, merchantId: string, input: unknown, actor?: AuditActor): Promise<SaveResult> {
  return saveSettings(
    eInvoicingSettingsSchema.safeParse(input),
    'eInvoicing',
    (eInvoicing) => updateMerchant(db, merchantId, { eInvoicing }, actor),
    (error) => [error.message],
  );
}

/** Whether the saved credentials work, asked of the provider; nothing is issued. */
export async function testEInvoicing(db: Db, merchantId: string): Promise<'ok' | 'off' | 'retry' | { refused: string }> {
  const merchant = await getMerchant(db, merchantId);
  if (!merchant?.einvoiceSecrets) return 'off';
  try {
    await createEInvoiceProvider(openSettings(merchant.einvoiceSecrets, merchant.id), { timeoutMs: 10_000 }).checkCredentials();
    return 'ok';
  } catch (error) {
    if (error instanceof EInvoiceAuthError) return { refused: error.message };
    return 'retry';
  }
}

export function invoiceStatusOf(value: string | undefined): InvoiceStatus | undefined {
  return (INVOICE_STATUSES as readonly string[]).includes(value ?? '') ? (value as InvoiceStatus) : undefined;
}

export async function loadInvoicesPage(db: Db, merchantId: string, { status, limit = 100 }: { status?: InvoiceStatus; limit?: number }): Promise<InvoiceRow[]> {
  return listInvoices(db, { merchantId, status, limit });
}
