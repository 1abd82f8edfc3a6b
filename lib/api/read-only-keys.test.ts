import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db/client';
import { createKey } from '@/lib/portal/api-keys';
import { useTestDatabase } from '@/test/database';
import { createTestMerchant } from '@/test/merchants';
import { jsonResponse } from './handler';
import { withMerchant } from './with-merchant';

// A key restricted to reading (docs/api.md#authentication): GET answers, anything else is a 403
// and the operation never runs.

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

describe('read-only API keys', () => {
  it('read, and are refused a write with a 403 before the operation runs', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { merchantId } = await createTestMerchant(db);
    const key = await createKey(db, merchantId, undefined, { readOnly: true });
    const handler = vi.fn(async () => jsonResponse({ ok: true }));
    const route = withMerchant(handler, { limit: 'merchant' });
    const request = (method: string) =>
      route(new Request('http://localhost/merchants/subscription-plans', { method, headers: { authorization: `Bearer ${key.apiKey}:${key.apiSecret}` } }), { params: Promise.resolve({}) });

    expect((await request('GET')).status).toBe(200);
    const refused = await request('POST');
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatchObject({ code: 'forbidden', message: 'This api_key is read-only: it may only read (GET)' });
    expect(handler).toHaveBeenCalledTimes(1);

    const full = await createKey(db, merchantId);
    const write = await route(new Request('http://localhost/merchants/subscription-plans', { method: 'POST', headers: { authorization: `Bearer ${full.apiKey}:${full.apiSecret}` } }), { params: Promise.resolve({}) });
    expect(write.status).toBe(200);
  });
});
