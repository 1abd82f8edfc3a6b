import { createHash, randomUUID } from 'node:crypto';
import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pingWithToken, startUpstashRestServer, type UpstashRestServer } from './upstash-rest-server';

// The REST stand-in against the real local Redis, through the real @upstash/redis client.

const TOKEN = `token-${randomUUID()}`;
const PREFIX = `servicepay:test:rest:${randomUUID()}`;
const SHEBANG_SCRIPT = `#!lua flags=allow-key-locking
  return {tonumber(ARGV[1]) + 1, {ARGV[2], false}, redis.call("INCR", KEYS[1])}
`;

let server: UpstashRestServer;
let redis: Redis;

beforeAll(async () => {
  server = await startUpstashRestServer({ token: TOKEN });
  redis = new Redis({ url: server.url, token: TOKEN, enableTelemetry: false });
});

afterAll(async () => {
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  await server.close();
});

describe('upstash REST stand-in', () => {
  it('round-trips strings, integers and nulls the way the client decodes them', async () => {
    expect(await redis.set(`${PREFIX}:s`, 'héllo, 世界')).toBe('OK');
    expect(await redis.get(`${PREFIX}:s`)).toBe('héllo, 世界');
    expect(await redis.get(`${PREFIX}:missing`)).toBeNull();
    // Text that happens to be valid base64 must still arrive as sent.
    await redis.set(`${PREFIX}:b`, 'abcd');
    expect(await redis.get(`${PREFIX}:b`)).toBe('abcd');
    expect(await redis.incr(`${PREFIX}:n`)).toBe(1);
    expect(await redis.mget(`${PREFIX}:s`, `${PREFIX}:missing`)).toEqual(['héllo, 世界', null]);
    await redis.hset(`${PREFIX}:h`, { a: 'x', b: 'OK' });
    expect(await redis.hgetall(`${PREFIX}:h`)).toEqual({ a: 'x', b: 'OK' });
  });

  it('answers without base64 when the client does not ask for it', async () => {
    const plain = new Redis({ url: server.url, token: TOKEN, responseEncoding: false, enableTelemetry: false });
    await plain.set(`${PREFIX}:plain`, 'ünï');
    expect(await plain.get(`${PREFIX}:plain`)).toBe('ünï');
    expect(await redis.get(`${PREFIX}:plain`)).toBe('ünï');
  });

  it('runs pipelines and transactions', async () => {
    const pipeline = redis.pipeline();
    pipeline.set(`${PREFIX}:p`, 'v').incr(`${PREFIX}:pc`).get(`${PREFIX}:p`);
    expect(await pipeline.exec()).toEqual(['OK', 1, 'v']);
    const tx = redis.multi();
    tx.incr(`${PREFIX}:pc`).incr(`${PREFIX}:pc`);
    expect(await tx.exec()).toEqual([2, 3]);
  });

  it('reports a failed command in a pipeline in its own slot', async () => {
    await redis.set(`${PREFIX}:str`, 'not a list');
    const pipeline = redis.pipeline();
    pipeline.lpush(`${PREFIX}:str`, 'x').get(`${PREFIX}:str`);
    const replies = await pipeline.exec({ keepErrors: true });
    expect(replies[0]?.error).toMatch(/WRONGTYPE/);
    expect(replies[1]?.result).toBe('not a list');
  });

  it('runs scripts with the shebang Redis 7.0 refuses, and knows them by the client’s SHA', async () => {
    const sha = createHash('sha1').update(SHEBANG_SCRIPT).digest('hex');
    await expect(redis.evalsha(createHash('sha1').update(`-- ${randomUUID()}`).digest('hex'), [], [])).rejects.toThrow(
      /NOSCRIPT/,
    );
    expect(await redis.eval(SHEBANG_SCRIPT, [`${PREFIX}:e`], ['41', 'nested'])).toEqual([42, ['nested', null], 1]);
    expect(await redis.evalsha(sha, [`${PREFIX}:e`], ['1', 'again'])).toEqual([2, ['again', null], 2]);
    expect(await redis.scriptLoad(SHEBANG_SCRIPT)).toBe(sha);
    expect(await redis.scriptExists(sha)).toEqual([1]);
    // The client batches into /pipeline by default; POST / must rewrite the same way.
    const direct = new Redis({ url: server.url, token: TOKEN, enableAutoPipelining: false, enableTelemetry: false });
    expect(await direct.scriptLoad(SHEBANG_SCRIPT)).toBe(sha);
    expect(await direct.evalsha(sha, [`${PREFIX}:e`], ['2', 'direct'])).toEqual([3, ['direct', null], 3]);
  });

  it('answers 401 to a wrong or missing token', async () => {
    const wrong = await pingWithToken(server.url, 'nope');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'Unauthorized' });
    const missing = await fetch(server.url, { method: 'POST', body: JSON.stringify(['PING']) });
    expect(missing.status).toBe(401);
    const client = new Redis({ url: server.url, token: 'nope', retry: false, enableTelemetry: false });
    await expect(client.ping()).rejects.toThrow(/Unauthorized/);
  });

  it('answers 400 with the Redis error to a failing command', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(['NOTACOMMAND']),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/unknown command/i);
  });

  it('answers 502 when Redis cannot be reached', async () => {
    const down = await startUpstashRestServer({ token: TOKEN, redisUrl: 'redis://127.0.0.1:1' });
    try {
      const res = await fetch(down.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify(['PING']),
      });
      expect(res.status).toBe(502);
    } finally {
      await down.close();
    }
  });

  it('refuses a Redis that is not on loopback', async () => {
    await expect(startUpstashRestServer({ token: TOKEN, redisUrl: 'redis://10.0.0.1:6379' })).rejects.toThrow(/loopback/);
  });
});
