import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PATCH } from '@/app/admin/merchants/[id]/route';
import type { Database } from '@/db/client';
import { merchants, subscriptionPlans, transactions } from '@/db/schema';
import { chargeRenewal, renewalDueOf } from '@/lib/billing/renewals';
import { payWithCard } from '@/lib/checkout/payments';
import { resetEnvForTests } from '@/lib/env';
import { openSettings } from '@/lib/invoices/settings';
import { merchantProcessors, wompiKeysOf } from '@/lib/processors';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { sealedUnderNewest, sealingKeys } from '@/lib/processors/secret-box';
import { runSettler } from '@/lib/settlement/settler';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { startWompiDouble, testWompiKeys, type WompiDouble } from '@/test/wompi-double';
import { rotateSealedSecrets } from './secrets-rotation';

// npm run secrets:rotate (docs/operations.md#secrets-at-rest): every sealed value re-sealed under
// the newest key, in batches, idempotent; afterwards the old key can go and renewals still charge.

const OLD = '0a'.repeat(32);
const NEW = '0b'.repeat(32);
let database: Database;
let double: WompiDouble;

function keys(list: string) {
  vi.stubEnv('SECRETS_ENCRYPTION_KEY', '');
  vi.stubEnv('SECRETS_ENCRYPTION_KEYS', list);
  resetEnvForTests();
}

beforeAll(async () => {
  database = await useTestDatabase();
  double = await startWompiDouble({ settleMs: 0 });
  vi.stubEnv('WOMPI_API_URL', double.url);
  keys(OLD);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetEnvForTests();
  await double.close();
});

const patch = (id: string, body: unknown) => call(PATCH, { method: 'PATCH', path: `/admin/merchants/${id}`, params: { id }, headers: adminHeaders(), body });
const row = async (id: string) => (await database.db.select().from(merchants).where(eq(merchants.id, id)))[0]!;

/** A Wompi merchant's ACTIVE plan whose next charge is due, paid by a card source the double knows. */
async function dueWompiPlan() {
  const link = await createTestLink(database.db);
  await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  const wompi = testWompiKeys();
  double.addMerchant(wompi);
  expect((await patch(link.merchant.merchantId, { processor: { type: 'wompi', ...wompi } })).status).toBe(200);
  const source = double.addSources(wompi.publicKey, 1);
  const [plan] = await database.db
    .update(subscriptionPlans)
    .set({ paymentMethodToken: `wompi_source_CARD_${source}`, nextChargeDate: new Date(Date.now() - 60_000) })
    .where(eq(subscriptionPlans.id, link.subscriptionPlanId))
    .returning();
  return { merchantId: link.merchant.merchantId, plan: plan!, wompi };
}

describe('rotating the sealing key', () => {
  it('re-seals every sealed value under the new key in batches, changes nothing the second time, and the next renewal charges without the old key', async () => {
    const { merchantId, plan, wompi } = await dueWompiPlan();
    const invoicing = await createTestMerchant(database.db);
    const factus = { provider: 'factus', clientId: 'client-1', clientSecret: 'secret-1', username: 'ops@tienda.co', password: 'pw-1', iva: 19 };
    expect((await patch(invoicing.merchantId, { eInvoicing: factus })).status).toBe(200);
    const oldId = sealingKeys()[0]!.id;
    expect((await row(merchantId)).wompiSecrets!.split('.')[1]).toBe(oldId);

    keys(`${NEW},${OLD}`);
    const updatedAt = (await row(merchantId)).updatedAt;
    const first = await rotateSealedSecrets(database.db, { batchSize: 1 });
    expect(first.resealed).toBeGreaterThanOrEqual(2);
    expect(first.merchants).toBeGreaterThanOrEqual(2);
    for (const id of [merchantId, invoicing.merchantId]) {
      const after = await row(id);
      for (const value of [after.wompiSecrets, after.einvoiceSecrets].filter((v) => v !== null)) expect(sealedUnderNewest(value)).toBe(true);
    }
    expect((await row(merchantId)).updatedAt).toEqual(updatedAt);
    expect(await rotateSealedSecrets(database.db, { batchSize: 1 })).toEqual({ merchants: first.merchants, resealed: 0 });

    keys(NEW);
    expect(wompiKeysOf(await row(merchantId))).toMatchObject({ privateKey: wompi.privateKey, eventsSecret: wompi.eventsSecret });
    expect(openSettings((await row(invoicing.merchantId)).einvoiceSecrets!, invoicing.merchantId)).toMatchObject({ clientSecret: 'secret-1' });
    // Wompi answers a new charge PENDING; the settler asks it again with the re-sealed private key.
    expect(await chargeRenewal(database.db, merchantProcessors(database.db), renewalDueOf({ ...plan, nextChargeDate: plan.nextChargeDate! }))).toMatchObject({ result: 'PENDING' });
    expect(await runSettler(database.db, { now: new Date(Date.now() + 3_600_000) })).toMatchObject({ settled: 1, failed: 0 });
    const [renewal] = await database.db.select().from(transactions).where(and(eq(transactions.planId, plan.id), eq(transactions.kind, 'RENEWAL')));
    expect(renewal).toMatchObject({ status: 'APPROVED', amount: plan.amount });
  });

  it('refuses a value moved from another merchant\'s row: the batch rolls back and the error names the merchant', async () => {
    keys(OLD);
    const a = await dueWompiPlan();
    const b = await dueWompiPlan();
    const moved = (await row(a.merchantId)).wompiSecrets;
    await database.db.update(merchants).set({ wompiSecrets: moved }).where(eq(merchants.id, b.merchantId));
    keys(`${NEW},${OLD}`);
    await expect(rotateSealedSecrets(database.db, { batchSize: 1000 })).rejects.toThrow(`does not open for merchant ${b.merchantId}`);
    expect((await row(a.merchantId)).wompiSecrets).toBe(moved);
    const stolen = await row(b.merchantId);
    expect(() => wompiKeysOf(stolen)).toThrow(/altered or moved from another merchant/);
  });
});
