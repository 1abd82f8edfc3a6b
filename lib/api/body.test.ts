import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJson } from './body';

const schema = z.object({ name: z.string() });

function streamed(chunks: string[], failAfter = false) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (failAfter) controller.error(new Error('aborted'));
      else controller.close();
    },
  });
  return new Request('http://localhost/', { method: 'POST', body, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);
}

describe('readJson', () => {
  it('reads a streamed body without Content-Length', async () => {
    await expect(readJson(streamed(['{"na', 'me":"Acme"}']), schema)).resolves.toEqual({ name: 'Acme' });
  });

  it('refuses a streamed body past 64 KiB with 413, without Content-Length', async () => {
    const chunks = Array.from({ length: 70 }, () => 'x'.repeat(1024));
    await expect(readJson(streamed(chunks), schema)).rejects.toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('answers a client that hangs up mid-body with a 400, not a 500', async () => {
    await expect(readJson(streamed(['{"name":'], true), schema)).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('takes application/json with a charset and +json types', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const req = new Request('http://localhost/', { method: 'POST', body: '{"name":"A"}', headers: { 'content-type': type } });
      await expect(readJson(req, schema)).resolves.toEqual({ name: 'A' });
    }
  });
});
