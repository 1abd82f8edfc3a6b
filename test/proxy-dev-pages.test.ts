import { NextRequest } from 'next/server';
import { describe, expect, it, vi } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { NOT_FOUND_PATH } from '@/lib/http/not-found';
import { proxy } from '@/proxy';
import { restoreEnvAfterEach } from '@/test/env';

// /dev/* exists only in development: a built server, production or sandbox
// deployment alike, answers every /dev path with the root not-found page (a 404), whatever the method.

restoreEnvAfterEach();

function built(sandbox: boolean) {
  vi.stubEnv('NODE_ENV', 'production');
  vi.stubEnv('SANDBOX_DEPLOYMENT', sandbox ? '1' : '');
  vi.stubEnv('BETTER_AUTH_SECRET', 'proxy-dev-pages-test-secret-0123456789');
  resetEnvForTests();
}

describe('/dev pages', () => {
  it.each([
    ['a production deployment', false],
    ['a sandbox deployment', true],
  ])('on %s are the not-found page, a 404, for every /dev path and method', async (_name, sandbox) => {
    built(sandbox);
    for (const [method, url] of [['GET', '/dev/emails'], ['GET', '/dev'], ['HEAD', '/dev/emails?x=1'], ['GET', '/dev/anything/else']] as const) {
      const res = await proxy(new NextRequest(`http://localhost${url}`, { method }));
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.headers.get('x-middleware-rewrite'), url).toBe(`http://localhost${NOT_FOUND_PATH}`);
    }
  });

  it('in development go on to the page', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    resetEnvForTests();
    const res = await proxy(new NextRequest('http://localhost/dev/emails'));
    expect(res.headers.get('x-middleware-next')).toBe('1');
    expect(res.headers.get('x-middleware-rewrite')).toBeNull();
  });

  it('leave paths that only start like them alone', async () => {
    built(true);
    const res = await proxy(new NextRequest('http://localhost/devices'));
    expect(res.headers.get('x-middleware-rewrite')).toBeNull();
  });
});
