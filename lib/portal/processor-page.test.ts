import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { merchants, subscriptionPlans } from '@/db/schema';
import { createPaymentLink } from '@/lib/plans/create-link';
import { createLinkBodySchema } from '@/lib/plans/schemas';
import { createTestMerchant, linkBody } from '@/test/merchants';
import { useTestDatabase } from '@/test/database';
import { testWompiKeys } from '@/test/wompi-double';
import { getProcessorSettings, saveProcessor } from './processor-page';

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});

describe('Ajustes → Procesador', () => {
  it('shows the sandbox, the events URL to paste into Wompi and the prefixes this deployment takes', async () => {
    const merchant = await createTestMerchant(database.db);
    expect(await getProcessorSettings(database.db, merchant.merchantId)).toEqual({
      type: 'sandbox',
      publicKey: null,
      production: false,
      prefixes: { publicKey: 'pub_test_', privateKey: 'prv_test_', eventsSecret: 'test_events_', integritySecret: 'test_integrity_' },
      eventsUrl: `${process.env.APP_URL}/processors/wompi/events/${merchant.merchantId}`,
      plansWompiWouldRefuse: 0,
    });
  });

  it('counts the open plans whose amount Wompi would refuse (pesos with cents, under COP 1.500), before and after switching', async () => {
    const merchant = await createTestMerchant(database.db);
    const create = (amount: number) => createPaymentLink(database.db, merchant.merchantId, createLinkBodySchema.parse(linkBody({ plan: { amount } })));
    await create(150000);
    await create(150050);
    const cancelled = await create(100);
    await create(99900);
    await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(eq(subscriptionPlans.id, cancelled.subscriptionPlanId));
    expect((await getProcessorSettings(database.db, merchant.merchantId)).plansWompiWouldRefuse).toBe(2);
    expect(await saveProcessor(database.db, merchant.merchantId, { type: 'wompi', ...testWompiKeys() })).toEqual({ ok: true });
    expect((await getProcessorSettings(database.db, merchant.merchantId)).plansWompiWouldRefuse).toBe(2);
  });

  it('sets and replaces the keys, shows only the public key afterwards, and goes back to the sandbox', async () => {
    const merchant = await createTestMerchant(database.db);
    const first = { type: 'wompi', ...testWompiKeys() };
    expect(await saveProcessor(database.db, merchant.merchantId, first)).toEqual({ ok: true });
    const second = { type: 'wompi', ...testWompiKeys() };
    expect(await saveProcessor(database.db, merchant.merchantId, second)).toEqual({ ok: true });
    const shown = await getProcessorSettings(database.db, merchant.merchantId);
    expect(shown).toMatchObject({ type: 'wompi', publicKey: second.publicKey });
    expect(JSON.stringify(shown)).not.toContain(second.privateKey);
    expect(await saveProcessor(database.db, merchant.merchantId, { type: 'sandbox' })).toEqual({ ok: true });
    const [row] = await database.db.select().from(merchants).where(eq(merchants.id, merchant.merchantId));
    expect(row).toMatchObject({ processorType: 'sandbox', wompiPublicKey: null, wompiSecrets: null });
  });

  it('names each refused key: a missing one, and one with a production prefix here', async () => {
    const merchant = await createTestMerchant(database.db);
    const missing = await saveProcessor(database.db, merchant.merchantId, { type: 'wompi', ...testWompiKeys(), privateKey: '' });
    expect(missing).toEqual({ ok: false, problems: [expect.stringMatching(/^privateKey: /)] });
    const wrong = await saveProcessor(database.db, merchant.merchantId, { type: 'wompi', ...testWompiKeys(), eventsSecret: 'prod_events_x' });
    expect(wrong).toEqual({ ok: false, problems: ['eventsSecret: must begin with test_events_ in this sandbox deployment'] });
  });
});
