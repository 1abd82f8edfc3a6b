import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { useTestDatabase } from '@/test/database';
import { factusDoubleAccount } from '@/test/factus-double';
import { withFactusDouble } from '@/test/invoice-doubles';
import { factusSettings } from '@/test/invoices';
import { createTestMerchant } from '@/test/merchants';
import { loadEInvoicingSettings, saveEInvoicing, testEInvoicing } from './einvoicing-page';

// Settings → Facturación (docs/einvoicing.md#settings): saving through the operator API's checks,
// and "Probar", which asks Factus (its double) for a token and issues nothing.

let database: Database;
const factus = withFactusDouble();
beforeAll(async () => {
  database = await useTestDatabase();
});

describe('Settings → Facturación', () => {
  it('saves Factus, shows provider and rate, and "Probar" says the credentials work without issuing anything', async () => {
    const m = await createTestMerchant(database.db);
    expect(await testEInvoicing(database.db, m.merchantId)).toBe('off');
    expect(await saveEInvoicing(database.db, m.merchantId, factusSettings(factusDoubleAccount(factus()), 5))).toEqual({ ok: true });
    expect((await loadEInvoicingSettings(database.db, m.merchantId)).view).toEqual({ provider: 'factus', iva: 5 });
    const documents = factus().documents.length;
    expect(await testEInvoicing(database.db, m.merchantId)).toBe('ok');
    expect(factus().documents.length).toBe(documents);
    expect(factus().requests.at(-1)?.path).toBe('/oauth/token');
  });

  it('"Probar" reports refused credentials', async () => {
    const m = await createTestMerchant(database.db);
    await saveEInvoicing(database.db, m.merchantId, { ...factusSettings(factusDoubleAccount(factus())), password: 'wrong' });
    expect(await testEInvoicing(database.db, m.merchantId)).toEqual({ refused: expect.any(String) });
  });

  it('refuses a wrong field, naming it, and changes nothing', async () => {
    const m = await createTestMerchant(database.db);
    const result = await saveEInvoicing(database.db, m.merchantId, { ...factusSettings(factusDoubleAccount(factus())), iva: 16, clientSecret: '' });
    expect(result).toEqual({ ok: false, problems: [expect.stringMatching(/^clientSecret: /), expect.stringMatching(/^iva: /)] });
    expect((await getMerchant(database.db, m.merchantId))?.einvoiceProvider).toBeNull();
  });

  it('turns it off with null', async () => {
    const m = await createTestMerchant(database.db);
    await saveEInvoicing(database.db, m.merchantId, factusSettings(factusDoubleAccount(factus())));
    expect(await saveEInvoicing(database.db, m.merchantId, null)).toEqual({ ok: true });
    expect((await loadEInvoicingSettings(database.db, m.merchantId)).view).toBeNull();
  });
});
