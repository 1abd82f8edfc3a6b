import type { Db } from '@/db/client';
import { type InvoiceJob, installInvoiceQueue } from '@/lib/invoices/hand-off';
import { updateMerchant } from '@/lib/merchants/merchants';
import type { AlegraAccount } from './alegra-double';
import { TEST_RESOLUTION } from './einvoicing-drafts';
import type { FactusAccount } from './factus-double';

// Test support for electronic invoicing (docs/einvoicing.md#issuing): a merchant's settings for a
// double's account, and a hand-off that holds committed documents back, as if the process had died
// after the commit, so a test decides when (and by how many issuers) each is issued. No Vitest
// here: bench:einvoice uses it too (the per-file doubles are in test/invoice-doubles.ts).

export function factusSettings(account: FactusAccount, iva: 19 | 5 | 0 | 'excluded' = 19) {
  const { clientId, clientSecret, username, password } = account;
  return { provider: 'factus' as const, clientId, clientSecret, username, password, iva };
}

export function alegraSettings(account: AlegraAccount, iva: 19 | 5 | 0 | 'excluded' = 19) {
  return { provider: 'alegra' as const, token: account.token, companyId: account.companyId, resolution: { ...TEST_RESOLUTION }, iva };
}

export async function turnEInvoicingOn(db: Db, merchantId: string, settings: ReturnType<typeof factusSettings> | ReturnType<typeof alegraSettings>) {
  await updateMerchant(db, merchantId, { eInvoicing: settings });
}

/** Holds each committed document's hand-off; returns the held jobs, in order. */
export function holdInvoiceHandOffs(): InvoiceJob[] {
  const held: InvoiceJob[] = [];
  installInvoiceQueue({
    async enqueue(jobs) {
      held.push(...jobs);
    },
  });
  return held;
}

export function restoreInvoiceQueue(): void {
  installInvoiceQueue(undefined);
}
