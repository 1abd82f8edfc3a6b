import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { FORM_BODY_LIMIT, proxy } from '@/proxy';

// Form posts Next.js would answer with a 500 are refused by proxy.ts first
// (docs/settlement.md#no-5xx-for-a-bad-request): past its 1 MB body limit a 413, unreadable a 400.

function multipart(size: number, { declare = true }: { declare?: boolean } = {}) {
  const form = new FormData();
  form.set('note', 'x'.repeat(size));
  const encoded = new Response(form);
  return encoded.arrayBuffer().then((body) => {
    const headers = new Headers({ 'content-type': encoded.headers.get('content-type')! });
    if (declare) headers.set('content-length', String(body.byteLength));
    const stream = new Response(body).body!;
    return new NextRequest('http://localhost/manage/tok_abcdefghijklmnop', { method: 'POST', headers, body: stream, duplex: 'half' } as ConstructorParameters<typeof NextRequest>[1]);
  });
}

describe('a form post to a page', () => {
  it('past 1 MB is a 413 naming the limit, declared or not', async () => {
    for (const declare of [true, false]) {
      const res = await proxy(await multipart(2 * 1024 * 1024, { declare }));
      expect(res.status, `declared: ${declare}`).toBe(413);
      expect(await res.text()).toContain('1 MB');
      expect(res.headers.get('connection')).toBe('close');
    }
  });

  it('just under the limit goes on to the page', async () => {
    const res = await proxy(await multipart(FORM_BODY_LIMIT - 4096));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-middleware-next')).toBe('1');
  });

  it('that is not multipart at all is a 400', async () => {
    const req = new NextRequest('http://localhost/', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: 'not a form' });
    const res = await proxy(req);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('form data could not be read');
  });
});
