import { afterAll, beforeAll } from 'vitest';
import type { Database, Db } from '@/db/client';
import { resetEnvForTests } from '@/lib/env';
import { type InvoiceJob, installInvoiceQueue } from '@/lib/invoices/hand-off';
import { updateMerchant } from '@/lib/merchants/merchants';
import { type AlegraAccount, type AlegraDouble, startAlegraDouble } from './alegra-double';
import { useTestDatabase } from './database';
import { TEST_RESOLUTION } from './einvoicing-drafts';
import { holdWebhookHandOffs, restoreWebhookQueue } from './webhook-queue';
import { type FactusAccount, type FactusDouble, startFactusDouble } from './factus-double';

// Test support for electronic invoicing (docs/einvoicing.md#issuing): a merchant's settings for a
// double's account, and a hand-off that holds committed documents back, as if the process had died
// after the commit, so a test decides when (and by how many issuers) each is issued.

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

/**
 * Both doubles for a test file's tests, FACTUS_API_URL and ALEGRA_API_URL pointing at them, the
 * test database, and webhook hand-offs held; call at the top level.
 */
export function withEInvoiceDoubles(): { factus: FactusDouble; alegra: AlegraDouble; database: Database } {
  const doubles = {} as { factus: FactusDouble; alegra: AlegraDouble; database: Database };
  beforeAll(async () => {
    [doubles.factus, doubles.alegra] = await Promise.all([startFactusDouble(), startAlegraDouble()]);
    process.env.FACTUS_API_URL = doubles.factus.url;
    process.env.ALEGRA_API_URL = doubles.alegra.url;
    resetEnvForTests();
    doubles.database = await useTestDatabase();
    holdWebhookHandOffs();
  });
  afterAll(async () => {
    restoreWebhookQueue();
    restoreInvoiceQueue();
    delete process.env.FACTUS_API_URL;
    delete process.env.ALEGRA_API_URL;
    resetEnvForTests();
    await Promise.all([doubles.factus.close(), doubles.alegra.close()]);
  });
  return doubles;
}

/** The Factus double for a test file's tests, with FACTUS_API_URL pointing at it; call at the top level. */
export function withFactusDouble(): () => FactusDouble {
  let double: FactusDouble | undefined;
  beforeAll(async () => {
    double = await startFactusDouble();
    process.env.FACTUS_API_URL = double.url;
    resetEnvForTests();
  });
  afterAll(async () => {
    await double?.close();
    delete process.env.FACTUS_API_URL;
    resetEnvForTests();
  });
  return () => double!;
}
