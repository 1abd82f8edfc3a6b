import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '@/db/client';
import { apiKeys, merchants } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { LATEST_API_VERSION } from '@/lib/api-versions';
import { createKey, revokeKey } from '@/lib/portal/api-keys';
import { useTestDatabase } from '@/test/database';
import { createTestMerchant } from '@/test/merchants';
import { authenticateMerchant } from '@/lib/api/authenticate';
import { KEY_CHANGES_CHANNEL, KeyCache, keyCacheOf, TRUST_FOR_MS } from './key-cache';

let database: Database;
let db: Db;
beforeAll(async () => {
  database = await useTestDatabase();
  db = database.db;
});

const bearer = (m: { apiKey: string; apiSecret: string }) => `Bearer ${m.apiKey}:${m.apiSecret}`;

/** A cache whose announcements arrive: its first lookup starts the listen and sends a beat. */
async function informedCache(now?: () => number): Promise<KeyCache> {
  const cache = new KeyCache(database, now);
  cache.get('pk_test_none');
  await expect.poll(() => (cache.get('pk_test_none'), cache.trusted), { timeout: 5_000 }).toBe(true);
  return cache;
}

describe('the key cache against the database', () => {
  it('keeps a key that authenticated, and still checks the secret of every request', async () => {
    const cache = await informedCache();
    const m = await createTestMerchant(db);
    expect(cache.get(m.apiKey)).toBeUndefined();
    await expect(authenticateMerchant(db, bearer(m), cache)).resolves.toEqual({ merchantId: m.merchantId, apiKey: m.apiKey, pinnedVersion: LATEST_API_VERSION, readOnly: false });
    expect(cache.get(m.apiKey)).toEqual({ merchantId: m.merchantId, secretHash: expect.any(String), readOnly: false, apiVersion: LATEST_API_VERSION });

    await expect(authenticateMerchant(db, `Bearer ${m.apiKey}:sk_test_wrong`, cache)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticateMerchant(db, `Bearer ${m.apiKey}:`, cache)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticateMerchant(db, bearer(m), cache)).resolves.toMatchObject({ merchantId: m.merchantId });
  });

  it('keeps no key that failed: unknown, revoked, or with a wrong secret', async () => {
    const cache = await informedCache();
    const m = await createTestMerchant(db);
    const revoked = await createKey(db, m.merchantId);
    await revokeKey(db, m.merchantId, revoked.apiKey);
    await expect(authenticateMerchant(db, bearer(revoked), cache)).rejects.toBeInstanceOf(ApiError);
    await expect(authenticateMerchant(db, `Bearer ${m.apiKey}:sk_test_wrong`, cache)).rejects.toBeInstanceOf(ApiError);
    await expect(authenticateMerchant(db, 'Bearer pk_test_AAAAAAAAAAAAAAAAAAAAAAAA:x', cache)).rejects.toBeInstanceOf(ApiError);
    expect(cache.size).toBe(0);
  });

  it('refuses a key revoked through this process at once', async () => {
    // The cache the merchant routes use, the one revokeKey empties.
    const cache = keyCacheOf(database);
    const m = await createTestMerchant(db);
    const second = await createKey(db, m.merchantId);
    await expect.poll(async () => (await authenticateMerchant(db, bearer(second), cache), cache.get(second.apiKey))).toBeDefined();
    await revokeKey(db, m.merchantId, second.apiKey);
    await expect(authenticateMerchant(db, bearer(second), cache)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('hears of a change made elsewhere (another server, an operator in SQL) and refuses the key', async () => {
    const cache = await informedCache();
    const revokedElsewhere = await createTestMerchant(db);
    const deactivatedElsewhere = await createTestMerchant(db);
    for (const m of [revokedElsewhere, deactivatedElsewhere]) await authenticateMerchant(db, bearer(m), cache);
    expect(cache.get(revokedElsewhere.apiKey)).toBeDefined();

    // Straight to the table: nothing in this process forgets; only the database's announcement can.
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.key, revokedElsewhere.apiKey));
    await expect.poll(() => cache.get(revokedElsewhere.apiKey), { timeout: 2_000 }).toBeUndefined();
    await expect(authenticateMerchant(db, bearer(revokedElsewhere), cache)).rejects.toMatchObject({ code: 'unauthorized' });

    await authenticateMerchant(db, bearer(deactivatedElsewhere), cache);
    await db.update(merchants).set({ status: 'INACTIVE' }).where(eq(merchants.id, deactivatedElsewhere.merchantId));
    await expect.poll(() => cache.get(deactivatedElsewhere.apiKey), { timeout: 2_000 }).toBeUndefined();
    await expect(authenticateMerchant(db, bearer(deactivatedElsewhere), cache)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('hears of a change of the pinned API version made elsewhere, and answers in the new one', async () => {
    const cache = await informedCache();
    const m = await createTestMerchant(db);
    await expect(authenticateMerchant(db, bearer(m), cache)).resolves.toMatchObject({ pinnedVersion: LATEST_API_VERSION });
    await db.update(merchants).set({ apiVersion: '2026-11-20' }).where(eq(merchants.id, m.merchantId));
    await expect.poll(() => cache.get(m.apiKey), { timeout: 2_000 }).toBeUndefined();
    await expect(authenticateMerchant(db, bearer(m), cache)).resolves.toMatchObject({ pinnedVersion: '2026-11-20' });
  });

  it('keeps its keys through an idle spell, and still refuses one revoked in SQL during it', async () => {
    // A clock that can jump past the trust, as a server with no requests for a while sees it.
    let idle = 0;
    const cache = await informedCache(() => performance.now() + idle);
    const m = await createTestMerchant(db);
    await authenticateMerchant(db, bearer(m), cache);

    idle += TRUST_FOR_MS + 1_000;
    expect(cache.get(m.apiKey)).toBeUndefined();
    // Its next beat back makes what it held usable again: not read anew.
    await expect.poll(() => cache.get(m.apiKey), { timeout: 5_000 }).toBeDefined();

    idle += TRUST_FOR_MS + 1_000;
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.key, m.apiKey));
    await expect.poll(() => (cache.get(m.apiKey), cache.trusted), { timeout: 5_000 }).toBe(true);
    expect(cache.get(m.apiKey)).toBeUndefined();
    await expect(authenticateMerchant(db, bearer(m), cache)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('is not emptied by the last-use writes every request leads to', async () => {
    const cache = await informedCache();
    const m = await createTestMerchant(db);
    await authenticateMerchant(db, bearer(m), cache);
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.key, m.apiKey));
    await db.update(merchants).set({ name: 'Otro nombre' }).where(eq(merchants.id, m.merchantId));
    // An announcement would have arrived by the time a beat sent after these writes comes back.
    const beatsBefore = cache.beatsHeard;
    await expect.poll(() => (cache.get(m.apiKey), cache.beatsHeard), { timeout: 5_000 }).toBeGreaterThan(beatsBefore + 1);
    expect(cache.get(m.apiKey)).toBeDefined();
  });
});

/** A cache, already listening, over a database whose announcements this test delivers by hand. */
async function handDelivered() {
  const heard: { notify?: (payload: string) => void; listened?: () => void } = {};
  let beats = 0;
  const clock = { now: 10_000 };
  const fake = {
    db: { execute: async () => (beats++, []) } as unknown as Db,
    listen: async (channel: string, onNotify: (payload: string) => void, onListen: () => void) => {
      expect(channel).toBe(KEY_CHANGES_CHANNEL);
      heard.notify = onNotify;
      heard.listened = onListen;
      onListen();
      return async () => {};
    },
  };
  const cache = new KeyCache(fake, () => clock.now);
  cache.get('pk');
  await Promise.resolve();
  return {
    cache,
    heard: heard as Required<typeof heard>,
    clock,
    beats: () => beats,
    /** This cache's beat, sent now, comes back. */
    beatBack: () => heard.notify!(cache.beatPayload(clock.now)),
  };
}

const KEY = { merchantId: 'mch_x', secretHash: 'h', readOnly: false, apiVersion: '2026-11-20' } as const;

describe('when the cache may be used', () => {
  it('is never used while its beats do not come back', async () => {
    const { cache, clock, beats } = await handDelivered();
    cache.get('pk');
    expect(beats()).toBe(1);
    cache.remember('pk', KEY, cache.ticket());
    expect(cache.get('pk')).toBeUndefined();
    clock.now += 5_000;
    cache.get('pk');
    expect(beats()).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('is used for TRUST_FOR_MS after a returned beat was sent, and again once a later beat is back', async () => {
    const { cache, heard, clock, beatBack } = await handDelivered();
    // Another process's beat on the same channel says nothing of this one's listen.
    heard.notify(`beat:someoneelse0000000:${clock.now}`);
    expect(cache.trusted).toBe(false);
    beatBack();
    cache.remember('pk', KEY, cache.ticket());
    expect(cache.get('pk')).toEqual(KEY);
    clock.now += TRUST_FOR_MS - 1;
    expect(cache.get('pk')).toEqual(KEY);
    // Idle past the trust: held, not used, and nothing new is kept.
    clock.now += 1;
    expect(cache.get('pk')).toBeUndefined();
    cache.remember('other', KEY, cache.ticket());
    expect(cache.size).toBe(1);
    // A beat sent before the lapse and late to arrive does not make it usable again.
    heard.notify(cache.beatPayload(clock.now - TRUST_FOR_MS));
    expect(cache.get('pk')).toBeUndefined();
    // The beat sent now comes back: every change committed before it was announced before it.
    beatBack();
    expect(cache.get('pk')).toEqual(KEY);
  });

  it('forgets what it held while idle when a change is announced before its next beat is back', async () => {
    const { cache, heard, clock, beatBack } = await handDelivered();
    beatBack();
    cache.remember('pk', KEY, cache.ticket());
    clock.now += TRUST_FOR_MS;
    expect(cache.get('pk')).toBeUndefined();
    heard.notify('changed');
    beatBack();
    expect(cache.get('pk')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets everything on an announcement, and on a listen made again', async () => {
    const { cache, heard, beatBack } = await handDelivered();
    beatBack();
    cache.remember('pk', KEY, cache.ticket());
    heard.notify('changed');
    expect(cache.get('pk')).toBeUndefined();
    cache.remember('pk', KEY, cache.ticket());
    heard.listened();
    expect(cache.get('pk')).toBeUndefined();
  });

  it('does not keep what was read before an announcement arrived', async () => {
    const { cache, heard, beatBack } = await handDelivered();
    beatBack();
    const ticket = cache.ticket();
    // The read is under way when the announcement of a revocation arrives: what it read may be stale.
    heard.notify('changed');
    cache.remember('pk', KEY, ticket);
    expect(cache.get('pk')).toBeUndefined();
    // The same read, with nothing announced meanwhile, is kept.
    cache.remember('pk', KEY, cache.ticket());
    expect(cache.get('pk')).toEqual(KEY);
  });

  it('listens anew when its beats stop coming back, as after a connection its listen did not survive', async () => {
    let listens = 0;
    let unlistens = 0;
    let now = 10_000;
    const cache = new KeyCache(
      {
        db: { execute: async () => [] } as unknown as Db,
        listen: async (_channel, _onNotify, onListen) => {
          listens++;
          onListen();
          return async () => {
            unlistens++;
          };
        },
      },
      () => now,
    );
    cache.get('pk');
    await Promise.resolve();
    cache.get('pk');
    now += 9_999;
    cache.get('pk');
    expect([listens, unlistens]).toEqual([1, 0]);
    now += 1;
    cache.get('pk');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([listens, unlistens]).toEqual([2, 1]);
  });

  it('reads every key from the database when it cannot listen, and tries again later', async () => {
    let attempts = 0;
    let now = 10_000;
    const cache = new KeyCache(
      {
        db: { execute: async () => [] } as unknown as Db,
        listen: async () => {
          attempts++;
          throw new Error('LISTEN is not supported through this pooler');
        },
      },
      () => now,
    );
    cache.get('pk');
    await new Promise((resolve) => setTimeout(resolve, 0));
    cache.get('pk');
    expect(attempts).toBe(1);
    cache.remember('pk', KEY, cache.ticket());
    expect(cache.get('pk')).toBeUndefined();
    now += 10_000;
    cache.get('pk');
    expect(attempts).toBe(2);
  });
});
