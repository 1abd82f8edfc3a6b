import type { Db } from '@/db/client';
import { createMerchant, updateMerchant } from '@/lib/merchants/merchants';

/** A fresh merchant with a working key: its own rate-limit buckets, so tests do not share limits. */
export async function createTestMerchant(db: Db, name = 'Tienda de prueba') {
  const created = await createMerchant(db, { name });
  return {
    ...created,
    headers: { authorization: `Bearer ${created.apiKey}:${created.apiSecret}` },
    // As the operator API does it: this process's key cache hears of it at once.
    deactivate: () => updateMerchant(db, created.merchantId, { status: 'INACTIVE' }),
  };
}

export type TestMerchant = Awaited<ReturnType<typeof createTestMerchant>>;

let sequence = 0;

/** A valid link-creation body with a unique externalReference; `overrides` replace whole sections. */
export function linkBody(overrides: { customer?: Record<string, unknown>; plan?: Record<string, unknown> } = {}) {
  sequence += 1;
  return {
    customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana', lastName: 'Gómez', ...overrides.customer },
    plan: { externalReference: `order-${Date.now()}-${sequence}`, description: 'Plan mensual', amount: 150000, ...overrides.plan },
  };
}
