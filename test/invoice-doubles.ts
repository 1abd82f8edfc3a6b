import { afterAll, beforeAll } from 'vitest';
import type { Database } from '@/db/client';
import { resetEnvForTests } from '@/lib/env';
import { type AlegraDouble, startAlegraDouble } from './alegra-double';
import { useTestDatabase } from './database';
import { type FactusDouble, startFactusDouble } from './factus-double';
import { restoreInvoiceQueue } from './invoices';
import { holdWebhookHandOffs, restoreWebhookQueue } from './webhook-queue';

// The e-invoicing providers' doubles for a test file's tests, started and stopped by Vitest's hooks.

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
