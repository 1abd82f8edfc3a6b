import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { listAuditEntries } from '@/db/queries/audit';
import { POST as createMerchantRoute } from '@/app/admin/merchants/route';
import { PATCH as patchMerchantRoute } from '@/app/admin/merchants/[id]/route';
import { POST as createLink } from '@/app/merchants/subscription-link/route';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { createTestMerchant, linkBody } from '@/test/merchants';

// The audit log of changes made over HTTP (docs/portal.md#audit-log): by a merchant's API key and
// by the operator, each with its client address.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const entriesOf = async (merchantId: string) => (await listAuditEntries(database.db, merchantId, {}, 20)).entries;

describe('changes made with an API key', () => {
  it('records the operation, its path and body, the key and the address; never the customer', async () => {
    const m = await createTestMerchant(database.db);
    const body = linkBody({ plan: { externalReference: 'audit-1' } });
    const res = await call(createLink, { path: '/merchants/subscription-link', headers: { ...m.headers, 'x-forwarded-for': '203.0.113.7' }, body });
    expect(res.status).toBe(200);
    const [entry] = await entriesOf(m.merchantId);
    expect(entry).toMatchObject({
      actorType: 'api_key',
      actorId: m.apiKey,
      ip: '203.0.113.7',
      action: 'api.createSubscriptionLink',
      target: 'POST /merchants/subscription-link',
    });
    expect(entry!.changes).toEqual({ request: { ...body, customer: '[omitted]' } });
    expect(JSON.stringify(entry)).not.toContain('ana@example.com');
  });

  it('records a creation once, in its own statement, and nothing for one refused by the database', async () => {
    const m = await createTestMerchant(database.db);
    const body = linkBody({ plan: { externalReference: 'audit-once' } });
    expect((await call(createLink, { path: '/merchants/subscription-link', headers: m.headers, body })).status).toBe(200);
    expect((await call(createLink, { path: '/merchants/subscription-link', headers: m.headers, body })).status).toBe(409);
    expect((await entriesOf(m.merchantId)).map((e) => e.action)).toEqual(['api.createSubscriptionLink']);
  });

  it('records an idempotent creation and its replay, each once', async () => {
    const m = await createTestMerchant(database.db);
    const request = { path: '/merchants/subscription-link', headers: { ...m.headers, 'Idempotency-Key': 'audit-replay' }, body: linkBody() };
    expect((await call(createLink, request)).status).toBe(200);
    const replay = await call(createLink, request);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await entriesOf(m.merchantId)).map((e) => e.action)).toEqual(['api.createSubscriptionLink', 'api.createSubscriptionLink']);
  });

  it('records nothing for a refused request', async () => {
    const m = await createTestMerchant(database.db);
    const res = await call(createLink, { path: '/merchants/subscription-link', headers: m.headers, body: linkBody({ plan: { amount: -1 } }) });
    expect(res.status).toBe(400);
    expect(await entriesOf(m.merchantId)).toEqual([]);
  });
});

describe('changes made by the operator', () => {
  it('records the merchant created (its webhook secret masked) and each setting changed', async () => {
    const created = await call(createMerchantRoute, { headers: { ...adminHeaders(), 'x-forwarded-for': '198.51.100.2' }, body: { name: 'Auditada' } });
    expect(created.status).toBe(201);
    const { merchantId, apiKey, webhookSecret } = created.json;
    const patched = await call(patchMerchantRoute, { method: 'PATCH', params: { id: merchantId }, headers: adminHeaders(), body: { status: 'INACTIVE' } });
    expect(patched.status).toBe(200);
    const entries = await entriesOf(merchantId);
    expect(entries.map((e) => [e.actorType, e.action])).toEqual([
      ['operator', 'merchant.updated'],
      ['operator', 'merchant.created'],
    ]);
    expect(entries[0]!.changes).toEqual({ status: { from: 'ACTIVE', to: 'INACTIVE' } });
    expect(entries[1]).toMatchObject({ ip: '198.51.100.2', target: apiKey });
    expect(entries[1]!.changes).toMatchObject({ name: 'Auditada', webhookSecret: `••••${webhookSecret.slice(-4)}` });
  });
});
