import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_JSON_DEPTH, MAX_JSON_KEYS, parseWith, readJson, readJsonObject } from './body';

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

describe('the shape of a JSON body', () => {
  const json = (text: string) => new Request('http://localhost/', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
  const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  it(`refuses objects nested deeper than ${MAX_JSON_DEPTH} levels with a 400 naming the limit`, async () => {
    // ~30 KB, 5,000 levels: overflowed the stack of the recursive NUL scan (a 500) before.
    const deep = '{"cardNumber":' + nested(5000) + '}';
    await expect(readJsonObject(json(deep))).rejects.toMatchObject({ status: 400, code: 'invalid_request', message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`) });
    await expect(readJsonObject(json(`{"a":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`))).rejects.toMatchObject({ status: 400 });
  });

  it('takes a body exactly at the depth limit, and counts brackets inside strings as text', async () => {
    await expect(readJsonObject(json(nested(MAX_JSON_DEPTH)))).resolves.toBeTypeOf('object');
    const text = JSON.stringify({ name: '{'.repeat(100) + '\\"[' + ':'.repeat(2000) });
    await expect(readJson(json(text), schema)).resolves.toEqual(JSON.parse(text));
  });

  it(`refuses more than ${MAX_JSON_KEYS} keys with a 413 naming the limit`, async () => {
    const keys = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
    await expect(readJsonObject(json(keys(MAX_JSON_KEYS)))).resolves.toBeTypeOf('object');
    await expect(readJsonObject(json(keys(MAX_JSON_KEYS + 1)))).rejects.toMatchObject({ status: 413, code: 'payload_too_large', message: expect.stringContaining(`${MAX_JSON_KEYS} keys`) });
  });

  it('names a NUL found deep in a value, without recursion', () => {
    let value: unknown = 'a\u0000b';
    for (let i = 0; i < 20_000; i++) value = { a: value };
    expect(() => parseWith(z.unknown(), value)).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/^a\.a\.a.*: must not contain the NUL/) }));
    expect(() => parseWith(z.unknown(), { a: [1, { 'b\u0000': 2 }] })).toThrow(expect.objectContaining({ message: expect.stringMatching(/^a\.1: must not contain/) }));
  });
});
