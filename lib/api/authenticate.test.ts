import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { apiKeys } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { createKey, revokeKey } from '@/lib/portal/api-keys';
import { useTestDatabase } from '@/test/database';
import { createTestMerchant } from '@/test/merchants';
import { authenticateMerchant } from './authenticate';
import { flushKeyUse } from '@/lib/auth/key-use';
import { deploymentKeyMode, generateApiKey, generateApiSecret, sha256Hex } from '@/lib/auth/secrets';

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

const lastUse = async (keys: string[]) =>
  Object.fromEntries((await db.select({ key: apiKeys.key, at: apiKeys.lastUsedAt }).from(apiKeys).where(inArray(apiKeys.key, keys))).map((r) => [r.key, r.at]));

describe('recording API key use', () => {
  it('writes nothing on the request path, then every noted key in one flush', async () => {
    const m = await createTestMerchant(db);
    const second = await createKey(db, m.merchantId);
    await authenticateMerchant(db, `Bearer ${m.apiKey}:${m.apiSecret}`);
    await authenticateMerchant(db, `Bearer ${second.apiKey}:${second.apiSecret}`);
    expect(await lastUse([m.apiKey, second.apiKey])).toEqual({ [m.apiKey]: null, [second.apiKey]: null });

    await flushKeyUse();
    const recorded = await lastUse([m.apiKey, second.apiKey]);
    expect(recorded[m.apiKey]).toBeInstanceOf(Date);
    expect(recorded[second.apiKey]).toBeInstanceOf(Date);
  });

  it('notes a key once a minute, and a refused request not at all', async () => {
    const m = await createTestMerchant(db);
    await authenticateMerchant(db, `Bearer ${m.apiKey}:${m.apiSecret}`);
    await flushKeyUse();
    const first = (await lastUse([m.apiKey]))[m.apiKey]!;
    // Inside the minute: not noted again, so the recorded time stays.
    await db.update(apiKeys).set({ lastUsedAt: new Date(first.getTime() - 30_000) }).where(eq(apiKeys.key, m.apiKey));
    await authenticateMerchant(db, `Bearer ${m.apiKey}:${m.apiSecret}`);
    await flushKeyUse();
    expect((await lastUse([m.apiKey]))[m.apiKey]).toEqual(new Date(first.getTime() - 30_000));

    const wrong = await createTestMerchant(db);
    await expect(authenticateMerchant(db, `Bearer ${wrong.apiKey}:sk_test_wrong`)).rejects.toBeInstanceOf(ApiError);
    const revoked = await createKey(db, wrong.merchantId);
    await revokeKey(db, wrong.merchantId, revoked.apiKey);
    await expect(authenticateMerchant(db, `Bearer ${revoked.apiKey}:${revoked.apiSecret}`)).rejects.toBeInstanceOf(ApiError);
    await flushKeyUse();
    expect(await lastUse([wrong.apiKey, revoked.apiKey])).toEqual({ [wrong.apiKey]: null, [revoked.apiKey]: null });
  });
});

describe('live and test keys (docs/api.md#authentication)', () => {
  it('a sandbox or development deployment issues pk_test_/sk_test_, a production one pk_live_/sk_live_', () => {
    expect(generateApiKey()).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);
    expect(generateApiSecret()).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(deploymentKeyMode({ NODE_ENV: 'production', SANDBOX_DEPLOYMENT: true } as never)).toBe('test');
    expect(deploymentKeyMode({ NODE_ENV: 'production', SANDBOX_DEPLOYMENT: false } as never)).toBe('live');
    expect(generateApiKey('live')).toMatch(/^pk_live_[0-9A-Za-z]{24}$/);
    expect(generateApiSecret('live')).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
  });

  it('a live key on a sandbox deployment is a 401 that says so, even with its right secret', async () => {
    const m = await createTestMerchant(db);
    const live = { key: generateApiKey('live'), secret: generateApiSecret('live') };
    await db.insert(apiKeys).values({ key: live.key, merchantId: m.merchantId, secretHash: sha256Hex(live.secret) });
    const refused = await authenticateMerchant(db, `Bearer ${live.key}:${live.secret}`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 401, message: 'A live key (pk_live_) was sent to a sandbox deployment: use a pk_test_ key' });
    expect(await authenticateMerchant(db, `Bearer ${m.apiKey}:${m.apiSecret}`)).toMatchObject({ merchantId: m.merchantId });
  });
});
