import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/db/client';
import { getPlanForMerchant } from '@/db/queries/plans';
import { createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { findOwned } from './ownership';

// The one "403 or 404" rule every merchant-named row goes through (docs/api.md#authentication).

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

describe('findOwned', () => {
  it('answers the caller its own row', async () => {
    const link = await createTestLink(database.db);
    const scope = { merchantId: link.merchant.merchantId, planId: link.subscriptionPlanId };
    const plan = await findOwned(database.db, 'sub', scope.planId, () => getPlanForMerchant(database.db, scope));
    expect(plan.id).toBe(link.subscriptionPlanId);
  });

  it("answers 403 for another merchant's row, reading nothing of it beyond its existence", async () => {
    const mine = await createTestLink(database.db);
    const theirs = await createTestLink(database.db);
    const load = vi.fn(() => getPlanForMerchant(database.db, { merchantId: mine.merchant.merchantId, planId: theirs.subscriptionPlanId }));
    await expect(findOwned(database.db, 'sub', theirs.subscriptionPlanId, load)).rejects.toMatchObject({
      code: 'forbidden',
      message: 'This subscription plan belongs to another account',
    });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers 404 for an unknown id, and for a malformed one without loading anything', async () => {
    const load = vi.fn(async () => undefined);
    await expect(findOwned(database.db, 'txn', 'txn_0Sq1nA1bC3dE5fG7hJ9kL2mN', load)).rejects.toMatchObject({ code: 'not_found', message: 'No transaction with this id' });
    expect(load).toHaveBeenCalledTimes(1);
    for (const malformed of ['evt_short', 'sub_0Sq1nA1bC3dE5fG7hJ9kL2mN', '', 'evt_0Sq1nA1bC3dE5fG7hJ9kL2m!']) {
      await expect(findOwned(database.db, 'evt', malformed, load)).rejects.toMatchObject({ code: 'not_found', message: 'No webhook event with this id' });
    }
    expect(load).toHaveBeenCalledTimes(1);
  });
});
