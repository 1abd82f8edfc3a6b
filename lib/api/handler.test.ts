import { afterEach, describe, expect, it, vi } from 'vitest';
import { bearerUnauthorized } from './errors';
import { errorResponse, jsonResponse, jsonTextResponse, withApi } from './handler';

// Every JSON reply of the API: never cached, and a small one marked no-transform so that Next's
// compression leaves it alone (the e2e test in e2e/home.spec.ts sees what a client receives).

describe('jsonResponse', () => {
  it('sends the JSON with no-store, and no-transform while the body is under 1 KiB', async () => {
    const res = jsonResponse({ status: 'ACTIVE' }, { status: 201, headers: { Location: '/x' } });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('{"status":"ACTIVE"}');
    expect(Object.fromEntries(res.headers)).toEqual({
      'cache-control': 'no-store, no-transform',
      'content-type': 'application/json',
      location: '/x',
    });
  });

  it('leaves a body of 1 KiB or more to be compressed, counting bytes rather than characters', () => {
    // 1,023 bytes of JSON (the quotes included) and then one more.
    expect(jsonTextResponse(JSON.stringify('a'.repeat(1021))).headers.get('cache-control')).toBe('no-store, no-transform');
    expect(jsonTextResponse(JSON.stringify('a'.repeat(1022))).headers.get('cache-control')).toBe('no-store');
    // 600 characters, 1,202 bytes in UTF-8.
    expect(jsonResponse({ d: 'ñ'.repeat(600) }).headers.get('cache-control')).toBe('no-store');
  });

  it("keeps a route's own Cache-Control, but never its Content-Type", () => {
    const res = jsonResponse({}, { headers: { 'Cache-Control': 'public, max-age=300', 'Content-Type': 'text/html' } });
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('content-type')).toBe('application/json');
  });
});

describe('errorResponse', () => {
  it('answers a 401 with the Bearer challenge and the error body, uncached and uncompressed', async () => {
    const res = errorResponse(bearerUnauthorized('no'), 'req_1');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: 'no', requestId: 'req_1' } });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
  });
});

describe('withApi', () => {
  afterEach(() => vi.restoreAllMocks());
  const route = { params: Promise.resolve({}) };
  const requestLines = (spy: { mock: { calls: unknown[][] } }) =>
    spy.mock.calls.map(([line]) => JSON.parse(String(line))).filter((line) => line.msg === 'request');

  it('answers a request its check refuses at once: no handler, the error body, the request id and the log line', async () => {
    const console = vi.spyOn(globalThis.console, 'log').mockImplementation(() => {});
    const handler = vi.fn(async () => jsonResponse({}));
    const GET = withApi(handler, { refuse: (req) => (req.headers.has('authorization') ? undefined : bearerUnauthorized('no')) });
    const res = GET(new Request('http://localhost/merchants/plans/sub_1/status'), route);
    // Not a promise: nothing asynchronous ran before the answer.
    expect(res).toBeInstanceOf(Response);
    const answer = await res;
    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    expect(await answer.json()).toEqual({ error: { code: 'unauthorized', message: 'no', requestId } });
    expect(handler).not.toHaveBeenCalled();
    expect(requestLines(console)).toEqual([
      expect.objectContaining({ requestId, method: 'GET', path: '/merchants/plans/sub_1/status', status: 401 }),
    ]);
  });

  it('hands a request its check lets through to the handler, which logs under the same request id', async () => {
    const console = vi.spyOn(globalThis.console, 'log').mockImplementation(() => {});
    const GET = withApi(async () => jsonResponse({ ok: true }), { refuse: () => undefined });
    const res = GET(new Request('http://localhost/x', { headers: { 'X-Request-Id': 'req_mine' } }), route);
    expect(res).toBeInstanceOf(Promise);
    const answer = await res;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe('req_mine');
    expect(requestLines(console)).toEqual([expect.objectContaining({ requestId: 'req_mine', path: '/x', status: 200 })]);
  });
});

describe('withApi when the database is out of reach', () => {
  const call = (error: unknown) =>
    withApi(async () => {
      throw error;
    })(new Request('http://localhost/merchants/x'), { params: Promise.resolve({}) });
  const closed = Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });

  it('answers 503 with Retry-After and the JSON error body, never a bare 500', async () => {
    // As postgres.js throws it, and wrapped by drizzle (a query error whose cause is the backend's 57P01).
    for (const error of [closed, new Error('Failed query: select 1', { cause: Object.assign(new Error('terminating connection'), { code: '57P01' }) })]) {
      const res = await call(error);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      const body = await res.json();
      expect(body.error).toMatchObject({ code: 'service_unavailable', requestId: res.headers.get('x-request-id') });
    }
  });

  it('leaves any other fault a 500', async () => {
    for (const error of [new Error('boom'), Object.assign(new Error('duplicate'), { code: '23505' })]) {
      const res = await call(error);
      expect(res.status).toBe(500);
      expect(res.headers.get('retry-after')).toBeNull();
    }
  });
});
