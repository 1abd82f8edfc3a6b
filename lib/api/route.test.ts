import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { LIMITS } from '@/lib/rate-limit/limits';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { createTestMerchant, type TestMerchant } from '@/test/merchants';
import { operation } from './operation';
import { route } from './route';

// route() does what the declaration says: its auth, its bucket, its headers, query and body
// parsed with its schemas, and 404 while it is unavailable.

let db: Db;
let merchant: TestMerchant;

beforeAll(async () => {
  db = (await useTestDatabase()).db;
  merchant = await createTestMerchant(db);
});

const declared = operation({
  method: 'POST',
  path: '/things/{id}',
  operationId: 'makeThing',
  summary: 'Make a thing',
  description: 'A test operation',
  tag: 'Test',
  auth: 'merchant',
  limit: 'plan-status',
  params: { id: { description: 'Any id', example: 'x' } },
  headers: { 'X-Flavour': { schema: z.enum(['sweet', 'sour'], { error: 'must be sweet or sour' }), description: 'Taste', example: 'sweet' } },
  query: z.object({ size: z.coerce.number().int().min(1) }),
  body: { schema: z.object({ name: z.string().min(2) }), required: true },
  replies: { 200: { description: 'The thing' } },
  errors: ['invalid_request', 'unauthorized', 'rate_limited', 'internal_error'],
  sample: { path: '/things/x' },
});

const POST = route(declared, async (_req, { params, headers, query, body, rawBody, merchant: who }) =>
  Response.json({ id: params.id, flavour: headers['X-Flavour'] ?? null, size: query.size, name: body.name, raw: rawBody, merchantId: who.merchantId }),
);

const send = (options: { headers?: Record<string, string>; body?: unknown; query?: string }) =>
  call(POST, { method: 'POST', path: `/things/x${options.query ?? '?size=3'}`, params: { id: 'x' }, headers: { ...merchant.headers, ...options.headers }, body: options.body });

describe('route()', () => {
  it('hands the handler what the declaration parsed, and carries the declaration', async () => {
    const res = await send({ headers: { 'x-flavour': 'sour' }, body: { name: 'Ana', extra: 1 } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: 'x', flavour: 'sour', size: 3, name: 'Ana', raw: { name: 'Ana', extra: 1 }, merchantId: merchant.merchantId });
    expect(POST.operation).toBe(declared);
  });

  it("counts the declared bucket and answers with its limit", async () => {
    const res = await send({ body: { name: 'Ana' } });
    expect(res.headers.get('ratelimit-limit')).toBe(String(LIMITS['plan-status']));
  });

  it('refuses a bad header, query or body with 400, and a missing key with 401', async () => {
    const header = await send({ headers: { 'x-flavour': 'bitter' }, body: { name: 'Ana' } });
    expect([header.status, header.json.error.message]).toEqual([400, 'X-Flavour must be sweet or sour']);
    const query = await send({ query: '?size=0', body: { name: 'Ana' } });
    expect([query.status, query.json.error.details[0].path]).toEqual([400, 'size']);
    const body = await send({ body: { name: 'A' } });
    expect([body.status, body.json.error.details[0].path]).toEqual([400, 'name']);
    const none = await send({ body: '' });
    expect([none.status, none.json.error.code]).toEqual([400, 'invalid_request']);
    const anonymous = await call(POST, { path: '/things/x?size=3', params: { id: 'x' }, body: { name: 'Ana' } });
    expect(anonymous.status).toBe(401);
  });

  it('answers 404 with the reason while the operation is unavailable, after the operator token is checked', async () => {
    let reason: string | false = 'Not on this deployment';
    const GET = route(
      operation({ ...declared, method: 'GET', auth: 'operator', limit: undefined, headers: undefined, query: undefined, body: undefined, unavailable: () => reason }),
      async () => Response.json({ ok: true }),
    );
    const wrongToken = await call(GET, { params: { id: 'x' }, headers: { authorization: 'Bearer nope' } });
    expect(wrongToken.status).toBe(401);
    const off = await call(GET, { params: { id: 'x' }, headers: adminHeaders() });
    expect([off.status, off.json.error.message]).toEqual([404, 'Not on this deployment']);
    reason = false;
    const on = await call(GET, { params: { id: 'x' }, headers: adminHeaders() });
    expect([on.status, on.json]).toEqual([200, { ok: true }]);
  });
});
