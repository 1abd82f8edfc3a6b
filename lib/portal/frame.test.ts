import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { updateMerchant } from '@/lib/merchants/merchants';
import { createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { loadPortalFrame } from './frame';

// The frame of every signed-in portal page: test mode, suspension, e-invoicing banners.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

describe('loadPortalFrame', () => {
  it('says test mode for a sandbox merchant, and suspended once the merchant is INACTIVE', async () => {
    const { merchant } = await createTestLink(database.db);
    expect(await loadPortalFrame(database.db, merchant.merchantId, 'es')).toEqual({ testMode: true, suspended: false, notices: [] });
    await updateMerchant(database.db, merchant.merchantId, { status: 'INACTIVE' });
    expect(await loadPortalFrame(database.db, merchant.merchantId, 'es')).toMatchObject({ suspended: true });
  });

  it('frames a merchant that no longer exists as suspended, not as a crash', async () => {
    expect(await loadPortalFrame(database.db, 'mch_gone', 'es')).toEqual({ testMode: true, suspended: true, notices: [] });
  });
});
