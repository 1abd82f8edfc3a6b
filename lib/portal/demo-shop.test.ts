import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { ApiError } from '@/lib/api/errors';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { getPaymentProcessor } from '@/lib/processors';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { DEMO_MERCHANT_ID, findOrCreateDemoMerchant } from './demo-merchant';
import { createDemoLink, demoSnapshot } from './demo-shop';

// The /demo page's server side: one demo merchant whatever the database, and nothing but its plans.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

describe('the demo merchant', () => {
  it('is created once, under its reserved id, however many first visits race', async () => {
    const rows = await Promise.all([1, 2, 3].map(() => findOrCreateDemoMerchant(database.db)));
    expect(rows.map((r) => r.id)).toEqual([DEMO_MERCHANT_ID, DEMO_MERCHANT_ID, DEMO_MERCHANT_ID]);
    expect((await getMerchant(database.db, DEMO_MERCHANT_ID))?.name).toBe('Tienda Demo');
  });
});

describe('demo links and snapshots', () => {
  it('creates a link of the demo merchant and shows its status, then the webhook event of its payment', async () => {
    const link = await createDemoLink('192.0.2.10');
    const before = await demoSnapshot(link.subscriptionPlanId);
    expect(before.status.plan.status).toBe('PENDING_ACTIVATION');
    expect(before.webhookEvents).toEqual([]);

    const payment = await payWithCard(database.db, getPaymentProcessor(), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
    const after = await demoSnapshot(link.subscriptionPlanId);
    expect(after.status.lastTransaction?.gatewayTransactionId).toBe(payment.transactionId);
    expect(after.webhookEvents).toHaveLength(1);
    expect(after.webhookEvents[0]!.attempts).toEqual([]);
    expect(JSON.parse(after.webhookEvents[0]!.body).data.transactionId).toBe(payment.transactionId);
  });

  it("never shows another merchant's plan", async () => {
    const link = await createTestLink(database.db);
    await expect(demoSnapshot(link.subscriptionPlanId)).rejects.toThrow(ApiError);
    await expect(demoSnapshot('not-a-plan-id')).rejects.toThrow(ApiError);
  });
});
