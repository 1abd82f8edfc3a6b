import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, merchants } from '@/db/schema';
import { sha256Hex } from '@/lib/auth/secrets';
import { resetEnvForTests } from '@/lib/env';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { PATCH } from './[id]/route';
import { POST } from './route';

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});

const countMerchants = async () => (await database.db.select().from(merchants)).length;

describe('POST /admin/merchants', () => {
  const ORIGINAL_TOKEN = process.env.ADMIN_API_TOKEN;
  afterEach(() => {
    process.env.ADMIN_API_TOKEN = ORIGINAL_TOKEN;
    resetEnvForTests();
  });

  it('creates a merchant with a working key pair, a generated webhook secret, and only the secret hash stored', async () => {
    const res = await call(POST, { headers: adminHeaders(), body: { name: 'Acme', allowedDomains: ['Shop.Example.com', '*.example.com:8443'] } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      merchantId: expect.stringMatching(/^mch_[0-9A-Za-z]{24}$/),
      name: 'Acme',
      apiKey: expect.stringMatching(/^pk_test_[0-9A-Za-z]{24}$/),
      apiSecret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{32}$/),
      webhookSecret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
    });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const [row] = await database.db.select().from(merchants).where(eq(merchants.id, res.json.merchantId));
    expect(row?.allowedDomains).toEqual(['shop.example.com', '*.example.com:8443']);
    const [key] = await database.db.select().from(apiKeys).where(eq(apiKeys.key, res.json.apiKey));
    expect(key?.secretHash).toBe(sha256Hex(res.json.apiSecret));
    expect(JSON.stringify(key)).not.toContain(res.json.apiSecret);
  });

  it('keeps a webhook secret the operator gives', async () => {
    const secret = 'x'.repeat(32);
    const res = await call(POST, { headers: adminHeaders(), body: { name: 'Acme', webhookUrl: 'https://hooks.example.com/sp', webhookSecret: secret } });
    expect(res.status).toBe(201);
    expect(res.json.webhookSecret).toBe(secret);
  });

  it.each([
    ['no header', {}],
    ['another scheme', { authorization: `Basic ${process.env.ADMIN_API_TOKEN}` }],
    ['a wrong token', { authorization: 'Bearer not-the-admin-token-at-all' }],
    ['a prefix of the token', { authorization: `Bearer ${process.env.ADMIN_API_TOKEN!.slice(0, -1)}` }],
  ])('answers 401 with %s and writes nothing', async (_label, headers) => {
    const before = await countMerchants();
    const res = await call(POST, { headers, body: { name: 'Acme' } });
    expect(res.status).toBe(401);
    expect(res.json.error).toMatchObject({ code: 'unauthorized', requestId: expect.any(String) });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await countMerchants()).toBe(before);
  });

  it('answers 404 while ADMIN_API_TOKEN is unset, even with a token', async () => {
    delete process.env.ADMIN_API_TOKEN;
    resetEnvForTests();
    const res = await call(POST, { headers: { authorization: `Bearer ${ORIGINAL_TOKEN}` }, body: { name: 'Acme' } });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
  });

  it.each([
    ['malformed JSON', '{"name": "Acme",', 400, 'invalid_request'],
    ['a JSON array', '[{"name":"Acme"}]', 400, 'invalid_request'],
    ['a JSON string', '"Acme"', 400, 'invalid_request'],
    ['JSON null', 'null', 400, 'invalid_request'],
    ['an empty body', '', 400, 'invalid_request'],
  ])('refuses %s with a clear %i', async (_label, body, status, code) => {
    const before = await countMerchants();
    const res = await call(POST, { headers: adminHeaders(), body });
    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
    expect(res.json.error.message).toEqual(expect.any(String));
    expect(await countMerchants()).toBe(before);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await call(POST, { headers: { ...adminHeaders(), 'content-type': 'text/plain' }, body: 'name=Acme' });
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe('unsupported_media_type');
  });

  it('refuses a body over 64 KiB with 413 before parsing', async () => {
    const res = await call(POST, { headers: adminHeaders(), body: `{"name":"${'a'.repeat(70_000)}"` });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('payload_too_large');
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['a wrong type', { name: 42 }, 'name'],
    ['an http:// webhook URL', { name: 'A', webhookUrl: 'http://hooks.example.com' }, 'webhookUrl'],
    ['a webhook URL that is not a URL', { name: 'A', webhookUrl: 'https://' }, 'webhookUrl'],
    ['a short webhook secret', { name: 'A', webhookSecret: 'x'.repeat(31) }, 'webhookSecret'],
    ['a domain with a scheme', { name: 'A', allowedDomains: ['https://shop.example.com'] }, 'allowedDomains.0'],
    ['a domain with a path', { name: 'A', allowedDomains: ['ok.example.com', 'shop.example.com/pay'] }, 'allowedDomains.1'],
    ['allowedDomains not an array', { name: 'A', allowedDomains: 'shop.example.com' }, 'allowedDomains'],
  ])('refuses %s with details naming the field', async (_label, body, path) => {
    const before = await countMerchants();
    const res = await call(POST, { headers: adminHeaders(), body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect(res.json.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(await countMerchants()).toBe(before);
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const good = await call(POST, { headers: { ...adminHeaders(), 'x-request-id': 'abc-123' }, body: {} });
    expect(good.headers.get('x-request-id')).toBe('abc-123');
    expect(good.json.error.requestId).toBe('abc-123');
    const bad = await call(POST, { headers: { ...adminHeaders(), 'x-request-id': 'bad id\u00e9' }, body: {} });
    expect(bad.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
  });
});

describe('PATCH /admin/merchants/{id}', () => {
  const create = async () => (await call(POST, { headers: adminHeaders(), body: { name: 'Acme' } })).json;

  it('changes name, status, webhook settings and allowed domains', async () => {
    const { merchantId } = await create();
    const res = await call(PATCH, {
      method: 'PATCH',
      headers: adminHeaders(),
      params: { id: merchantId },
      body: { name: 'Acme SAS', status: 'INACTIVE', webhookUrl: 'https://acme.example.com/hooks', webhookSecret: 'y'.repeat(40), allowedDomains: ['acme.example.com'] },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ merchantId, name: 'Acme SAS', status: 'INACTIVE', webhookUrl: 'https://acme.example.com/hooks', allowedDomains: ['acme.example.com'] });
    expect(res.json).not.toHaveProperty('webhookSecret');
    const [row] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(row?.webhookSecret).toBe('y'.repeat(40));
  });

  it('clears the webhook URL with null', async () => {
    const { merchantId } = await call(POST, { headers: adminHeaders(), body: { name: 'A', webhookUrl: 'https://a.example.com/h' } }).then((r) => r.json);
    const res = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: merchantId }, body: { webhookUrl: null } });
    expect(res.json.webhookUrl).toBeNull();
  });

  it('pins an API version (docs/api.md#versioning); an unknown one is a 400 naming the versions, and changes nothing', async () => {
    const { merchantId } = await create();
    const patch = (body: object) => call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: merchantId }, body });
    expect((await patch({ apiVersion: '2026-11-20' })).json).toMatchObject({ apiVersion: '2026-11-20' });
    const bad = await patch({ apiVersion: '2027-01-01' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toBe('apiVersion: must be one of the API versions: 2026-11-20, 2026-11-26, 2026-11-28');
    const [row] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(row?.apiVersion).toBe('2026-11-20');
  });

  it('turns webhook retries on only with a webhook URL (400 otherwise, nothing changed), and off when the URL is cleared', async () => {
    const { merchantId } = await create();
    const patch = (body: object) => call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: merchantId }, body });
    const refused = await patch({ webhookRetries: true });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({
      code: 'invalid_request',
      message: 'webhookRetries needs a webhook URL: set webhookUrl first',
      details: [{ path: 'webhookRetries', message: 'webhookRetries needs a webhook URL: set webhookUrl first' }],
    });
    expect((await patch({ webhookRetries: true, webhookUrl: null })).status).toBe(400);
    const [before] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(before?.webhookRetries).toBe(false);

    expect((await patch({ webhookRetries: true, webhookUrl: 'https://acme.example.com/hooks' })).json).toMatchObject({ webhookRetries: true });
    expect((await patch({ webhookUrl: null })).json).toMatchObject({ webhookRetries: false, webhookUrl: null });
    expect((await patch({ webhookRetries: 'yes' })).json.error.message).toBe('webhookRetries: must be true or false');
    expect((await patch({ webhookEnabled: false })).status).toBe(400);
  });

  it.each([
    ['an unknown merchant', 'mch_000000000000000000000000'],
    ['an id that is not a merchant id', 'sub_000000000000000000000000'],
    ['garbage', '..%2F..'],
  ])('answers 404 for %s', async (_label, id) => {
    const res = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id }, body: { name: 'X' } });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
  });

  it.each([
    ['an empty patch', {}],
    ['an unknown status', { status: 'DELETED' }],
    ['an http:// webhook URL', { webhookUrl: 'http://acme.example.com' }],
    ['a short secret', { webhookSecret: 'short' }],
    ['a malformed domain', { allowedDomains: ['*.com'] }],
  ])('refuses %s and changes nothing', async (_label, body) => {
    const { merchantId } = await create();
    const [before] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    const res = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: merchantId }, body });
    expect(res.status).toBe(400);
    const [after] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(after).toEqual(before);
  });

  it('shows the renewal settings with their defaults and changes them (docs/billing.md#renewal-links)', async () => {
    const { merchantId } = await create();
    const first = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: merchantId }, body: { name: 'Acme' } });
    expect(first.json).toMatchObject({ reminderDays: 3, graceDays: 5, renewalLadder: true });
    const res = await call(PATCH, {
      method: 'PATCH',
      headers: adminHeaders(),
      params: { id: merchantId },
      body: { reminderDays: 10, graceDays: 0, renewalLadder: false },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ reminderDays: 10, graceDays: 0, renewalLadder: false });
    const [row] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(row).toMatchObject({ reminderDays: 10, graceDays: 0, renewalLadder: false });
  });

  it('sets and removes the NIT its receipts print (docs/customers.md#receipts)', async () => {
    const { merchantId } = await create();
    const patch = (nit: string | null) => call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: merchantId }, body: { nit } });
    expect((await patch('900123456-7')).json).toMatchObject({ nit: '900123456-7' });
    const [row] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(row?.nit).toBe('900123456-7');
    expect((await patch(null)).json).toMatchObject({ nit: null });
  });

  it.each([
    ['reminderDays', 0],
    ['reminderDays', 11],
    ['reminderDays', 2.5],
    ['reminderDays', '3'],
    ['reminderDays', null],
    ['graceDays', -1],
    ['graceDays', 16],
    ['graceDays', 1e309],
    ['renewalLadder', 'yes'],
    ['renewalLadder', 1],
    ['nit', '12345'],
    ['nit', '900123456-78'],
    ['nit', '900.123.456'],
    ['nit', 900123456],
  ])('refuses %s = %j with a 400 naming the field, and changes nothing', async (field, value) => {
    const { merchantId } = await create();
    const [before] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    const res = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: merchantId }, body: { [field]: value } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect(res.json.error.details).toEqual([expect.objectContaining({ path: field })]);
    expect(res.json.error.message).toContain(field);
    const [after] = await database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(after).toEqual(before);
  });

  it('needs the operator token', async () => {
    const { merchantId } = await create();
    const res = await call(PATCH, { method: 'PATCH', params: { id: merchantId }, body: { status: 'INACTIVE' } });
    expect(res.status).toBe(401);
  });
});
