import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from './handler';
import { withMerchant } from './with-merchant';

// A request whose Authorization header holds no credentials is refused before anything else runs:
// no database, no rate limit (docs/api.md#authentication). Credentials that are there but wrong go
// through authentication, and the route tests cover them.
describe('withMerchant', () => {
  const route = { params: Promise.resolve({}) };

  it.each([
    ['no header', undefined],
    ['another scheme', 'Basic cGtfdGVzdDpzZWNyZXQ='],
    ['a Bearer token without a colon', 'Bearer pk_test_0123456789abcdefghijklmn'],
    ['an empty Bearer token', 'Bearer '],
  ])('answers %s with the 401 at once, before the database or the rate limit', async (_, authorization) => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const handler = vi.fn(async () => jsonResponse({}));
    const GET = withMerchant(handler, { limit: 'plan-status' });
    const res = GET(new Request('http://localhost/merchants/plans/sub_1/status', { headers: authorization ? { authorization } : {} }), route);
    expect(res).toBeInstanceOf(Response);
    const answer = await res;
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    expect(answer.headers.has('ratelimit-limit')).toBe(false);
    expect((await answer.json()).error.code).toBe('unauthorized');
    expect(handler).not.toHaveBeenCalled();
  });
});
