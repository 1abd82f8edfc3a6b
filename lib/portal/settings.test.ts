import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { apiKeys, merchants } from '@/db/schema';
import { POST as createLink } from '@/app/merchants/subscription-link/route';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, linkBody } from '@/test/merchants';
import { LATEST_API_VERSION } from '@/lib/api-versions';
import { createKey, listKeys, revokeKey } from './api-keys';
import { getPinnedVersion, savePinnedVersion } from './api-version';
import { getWebhookSettings, reenableWebhook, saveAllowedDomains, saveWebhookRetries, saveWebhookSecret, saveWebhookUrl } from './webhook-settings';

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

const callApi = (apiKey: string, apiSecret: string) =>
  call(createLink, { path: '/merchants/subscription-link', headers: { authorization: `Bearer ${apiKey}:${apiSecret}` }, body: linkBody() });

describe('API keys', () => {
  it('creates a key that works on the API, and lists it without its secret', async () => {
    const m = await createTestMerchant(db);
    const { apiKey, apiSecret } = await createKey(db, m.merchantId);
    expect(apiKey).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);
    expect(apiSecret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect((await callApi(apiKey, apiSecret)).status).toBe(200);
    const listed = await listKeys(db, m.merchantId);
    expect(listed.map((k) => k.key)).toEqual([apiKey, m.apiKey]);
    expect(JSON.stringify(listed)).not.toContain(apiSecret);
    expect(Object.keys(listed[0]!).sort()).toEqual(['createdAt', 'key', 'lastUsedAt', 'readOnly', 'revokedAt']);
  });

  it('a revoked key gets 401 on the API; the other key keeps working', async () => {
    const m = await createTestMerchant(db);
    const second = await createKey(db, m.merchantId);
    expect(await revokeKey(db, m.merchantId, m.apiKey)).toEqual({ activeLeft: 1 });
    const refused = await call(createLink, { path: '/merchants/subscription-link', headers: m.headers, body: linkBody() });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('unauthorized');
    expect((await callApi(second.apiKey, second.apiSecret)).status).toBe(200);
  });

  it('revoking the last active key is allowed and says none is left', async () => {
    const m = await createTestMerchant(db);
    expect(await revokeKey(db, m.merchantId, m.apiKey)).toEqual({ activeLeft: 0 });
    expect((await call(createLink, { path: '/merchants/subscription-link', headers: m.headers, body: linkBody() })).status).toBe(401);
  });

  it("cannot revoke another merchant's key, nor one already revoked", async () => {
    const a = await createTestMerchant(db);
    const b = await createTestMerchant(db);
    expect(await revokeKey(db, a.merchantId, b.apiKey)).toBeNull();
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.key, b.apiKey));
    expect(row?.revokedAt).toBeNull();
    await revokeKey(db, b.merchantId, b.apiKey);
    expect(await revokeKey(db, b.merchantId, b.apiKey)).toBeNull();
    expect(await listKeys(db, a.merchantId)).toHaveLength(1);
  });
});

describe('webhook settings', () => {
  it('saves an https URL and removes it when emptied', async () => {
    const m = await createTestMerchant(db);
    expect(await saveWebhookUrl(db, m.merchantId, ' https://shop.example.com/hooks ')).toEqual({ ok: true });
    expect((await getWebhookSettings(db, m.merchantId)).webhookUrl).toBe('https://shop.example.com/hooks');
    expect(await saveWebhookUrl(db, m.merchantId, '')).toEqual({ ok: true });
    expect((await getWebhookSettings(db, m.merchantId)).webhookUrl).toBeNull();
  });

  it.each(['http://shop.example.com/hooks', 'ftp://shop.example.com', 'not a url', 'https://user:pw@shop.example.com/'])(
    'refuses the webhook URL %s and keeps the old one',
    async (url) => {
      const m = await createTestMerchant(db);
      await saveWebhookUrl(db, m.merchantId, 'https://shop.example.com/hooks');
      const result = await saveWebhookUrl(db, m.merchantId, url);
      expect(result.ok).toBe(false);
      expect((await getWebhookSettings(db, m.merchantId)).webhookUrl).toBe('https://shop.example.com/hooks');
    },
  );

  it('says why an http:// URL is refused', async () => {
    const m = await createTestMerchant(db);
    expect(await saveWebhookUrl(db, m.merchantId, 'http://shop.example.com/hooks')).toEqual({
      ok: false,
      problems: ['must begin with https:// (HTTP endpoints are rejected)'],
    });
  });

  it('generates a new secret, or takes one of at least 32 characters, and refuses a short one', async () => {
    const m = await createTestMerchant(db);
    const before = (await getWebhookSettings(db, m.merchantId)).webhookSecret;
    expect(await saveWebhookSecret(db, m.merchantId)).toEqual({ ok: true });
    const generated = (await getWebhookSettings(db, m.merchantId)).webhookSecret;
    expect(generated).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(generated).not.toBe(before);

    expect(await saveWebhookSecret(db, m.merchantId, 'x'.repeat(31))).toEqual({ ok: false, problems: ['must be at least 32 characters'] });
    expect((await getWebhookSettings(db, m.merchantId)).webhookSecret).toBe(generated);
    expect(await saveWebhookSecret(db, m.merchantId, 'my-own-secret-of-32-characters!!')).toEqual({ ok: true });
  });

  it('saves allowed domains one per line, normalised, and refuses a malformed one naming it', async () => {
    const m = await createTestMerchant(db);
    expect(await saveAllowedDomains(db, m.merchantId, 'Shop.Example.com\n*.example.com, localhost:3000\n\n')).toEqual({ ok: true });
    expect((await getWebhookSettings(db, m.merchantId)).allowedDomains).toEqual(['shop.example.com', '*.example.com', 'localhost:3000']);

    for (const bad of ['https://shop.example.com', 'shop.example.com/pay', '*.com', 'shop..example.com']) {
      const result = await saveAllowedDomains(db, m.merchantId, `ok.example.com\n${bad}`);
      expect(result.ok).toBe(false);
      expect(result.ok === false && result.problems[0]).toContain(`"${bad.toLowerCase()}"`);
    }
    const [row] = await db.select().from(merchants).where(eq(merchants.id, m.merchantId));
    expect(row?.allowedDomains).toEqual(['shop.example.com', '*.example.com', 'localhost:3000']);
  });
});

describe('the pinned API version (docs/api.md#versioning)', () => {
  it('shows the version the merchant was created with, and a change applies from the next request', async () => {
    const m = await createTestMerchant(db);
    expect(await getPinnedVersion(db, m.merchantId)).toBe(LATEST_API_VERSION);
    expect((await call(createLink, { headers: m.headers, body: linkBody() })).headers.get('servicepay-version')).toBe(LATEST_API_VERSION);
    expect(await savePinnedVersion(db, m.merchantId, '2026-11-20')).toBe(true);
    expect(await getPinnedVersion(db, m.merchantId)).toBe('2026-11-20');
    expect((await call(createLink, { headers: m.headers, body: linkBody() })).headers.get('servicepay-version')).toBe('2026-11-20');
  });

  it.each(['', '2026-11-21', 'latest', "2026-11-20' or 1=1"])('refuses %j and changes nothing', async (value) => {
    const m = await createTestMerchant(db);
    expect(await savePinnedVersion(db, m.merchantId, value)).toBe(false);
    expect(await getPinnedVersion(db, m.merchantId)).toBe(LATEST_API_VERSION);
  });
});

describe('webhook retries in the portal (docs/webhooks.md#retries)', () => {
  it('turns retries on only with a URL, off at will, and re-enables a disabled endpoint', async () => {
    const m = await createTestMerchant(db);
    expect(await saveWebhookRetries(db, m.merchantId, true)).toBe('needs_url');
    expect((await getWebhookSettings(db, m.merchantId)).webhookRetries).toBe(false);
    await saveWebhookUrl(db, m.merchantId, 'https://shop.example.com/hooks');
    expect(await saveWebhookRetries(db, m.merchantId, true)).toBe('saved');
    expect((await getWebhookSettings(db, m.merchantId)).webhookRetries).toBe(true);

    const disabledAt = new Date('2026-11-25T12:00:00.000Z');
    await db.update(merchants).set({ webhookDisabledAt: disabledAt, webhookFailingSince: new Date('2026-11-22T12:00:00.000Z') }).where(eq(merchants.id, m.merchantId));
    expect((await getWebhookSettings(db, m.merchantId)).webhookDisabledAt).toEqual(disabledAt);
    await reenableWebhook(db, m.merchantId);
    const [row] = await db.select().from(merchants).where(eq(merchants.id, m.merchantId));
    expect(row).toMatchObject({ webhookDisabledAt: null, webhookFailingSince: null, webhookRetries: true });

    // Removing the URL turns retries off with it.
    await saveWebhookUrl(db, m.merchantId, '');
    expect(await getWebhookSettings(db, m.merchantId)).toMatchObject({ webhookUrl: null, webhookRetries: false });
    expect(await saveWebhookRetries(db, m.merchantId, false)).toBe('saved');
    expect((await getWebhookSettings(db, m.merchantId)).webhookRetries).toBe(false);
  });
});
