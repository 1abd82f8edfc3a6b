import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { stubResolver } from '@/test/network-tripwire';
import { fileReceiver } from '@/test/receiver-hooks';
import { hang, reply, startReceiver } from '@/test/webhook-receiver';
import { startRemoteReceiver } from '@/test/webhook-receiver-remote';
import { agentFor, closeIdleConnections, MAX_IDLE_SOCKETS_PER_ORIGIN, setConnectionReuse } from './connections';
import { postWebhook, type PostRequest } from './http';

// Keep-alive reuse of webhook connections (./connections.ts) and the rules it must not weaken:
// the connect-time address guard, no redirects, the 10 s limit.

const body = '{"event":"subscription.charge.approved"}';
const base = { body, headers: { 'Content-Type': 'application/json' } };

const receiver = fileReceiver();
afterAll(() => closeIdleConnections());
afterEach(() => {
  setConnectionReuse(true);
  closeIdleConnections();
});

const post = (request: Partial<PostRequest> = {}) => postWebhook({ url: receiver.url, allowPrivateNetwork: true, ...base, ...request });

describe('connection reuse', () => {
  it('sends POSTs to one endpoint over one kept-alive connection', async () => {
    const before = receiver.connections;
    for (let i = 0; i < 5; i++) expect(await post()).toMatchObject({ ok: true, statusCode: 200 });
    expect(receiver.received).toHaveLength(5);
    expect(receiver.connections - before).toBe(1);
  });

  it('never makes a POST wait for a socket, and keeps at most 10 open between POSTs', async () => {
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => post()));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(receiver.received).toHaveLength(30);
    const agent = agentFor(new URL(receiver.url), { guarded: false })!;
    const idle = Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
    expect(idle).toBeGreaterThan(0);
    expect(idle).toBeLessThanOrEqual(MAX_IDLE_SOCKETS_PER_ORIGIN);
    expect(Object.keys(agent.requests)).toHaveLength(0);
  });

  it('opens a fresh connection per POST when reuse is off (the benchmark baseline)', async () => {
    setConnectionReuse(false);
    const before = receiver.connections;
    for (let i = 0; i < 3; i++) expect((await post()).ok).toBe(true);
    expect(receiver.connections - before).toBe(3);
  });

  it('never lends a socket opened without the guard to a guarded POST', async () => {
    // The certificate names localhost; the stub resolves it to loopback.
    const resolve = stubResolver({ localhost: ['127.0.0.1'] });
    const url = `https://localhost:${receiver.port}/webhooks`;
    expect(await postWebhook({ ...base, url, allowPrivateNetwork: true, resolve })).toMatchObject({ ok: true });
    const guarded = await postWebhook({ ...base, url, allowPrivateNetwork: false, resolve });
    expect(guarded).toMatchObject({ ok: false, statusCode: null });
    expect(guarded.error).toMatch(/^private_address: /);
    expect(receiver.received).toHaveLength(1);
  });

  it('does not reuse the connection of a POST that timed out, and the limit still holds', async () => {
    receiver.respondWith(hang);
    const before = receiver.connections;
    expect(await post({ timeoutMs: 300 })).toMatchObject({ ok: false, error: 'timeout: no complete reply within 0.3 s' });
    receiver.respondWith(reply(200, 'ok'));
    expect(await post()).toMatchObject({ ok: true, statusCode: 200 });
    expect(receiver.connections - before).toBe(2);
  });

  it('still reports a redirect without following it, and the next POST reuses the connection', async () => {
    const target = await startReceiver();
    try {
      receiver.respondWith(reply(302, '', { Location: target.url }));
      const before = receiver.connections;
      expect(await post()).toMatchObject({ ok: false, statusCode: 302, error: `redirect_not_followed: ${target.url}` });
      receiver.respondWith(reply(200, 'ok'));
      expect(await post()).toMatchObject({ ok: true });
      expect(target.received).toHaveLength(0);
      expect(receiver.connections - before).toBe(1);
    } finally {
      await target.close();
    }
  });

  it('drops the connection after a reply longer than the excerpt, and the next POST opens another', async () => {
    receiver.respondWith(reply(200, 'x'.repeat(100_000)));
    const before = receiver.connections;
    expect((await post()).responseExcerpt).toHaveLength(2048);
    receiver.respondWith(reply(200, 'ok'));
    expect(await post()).toMatchObject({ ok: true, responseExcerpt: 'ok' });
    expect(receiver.connections - before).toBe(2);
  });

  it('sends on a new connection, once, when the receiver closed the kept-alive one while it sat idle', async () => {
    // The receiver runs in a process of its own. Once the socket sits idle in our pool, the
    // receiver closes it while this process is busy (its event loop blocked), so the close is on
    // the wire but unread when the next POST takes the pooled socket: a POST that lands as the
    // receiver's keep-alive ends.
    const remote = await startRemoteReceiver();
    try {
      expect((await post({ url: remote.url })).ok).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      remote.closeIdleConnections();
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      expect(await post({ url: remote.url })).toMatchObject({ ok: true, statusCode: 200 });
      expect(await remote.counts()).toEqual({ received: 2, connections: 2 });
    } finally {
      await remote.stop();
    }
  });

  it('never sends again a POST the receiver read before it dropped the kept-alive connection', async () => {
    expect((await post()).ok).toBe(true);
    receiver.respondWith((req) => req.socket.destroy());
    const outcome = await post();
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toMatch(/^network_error: /);
    expect(receiver.received).toHaveLength(2);
  });

  it('takes back into the pool no socket of a failed POST, and the next POST still goes', async () => {
    expect((await post()).ok).toBe(true);
    receiver.respondWith((req) => req.socket.destroy());
    expect((await post()).ok).toBe(false);
    receiver.respondWith(reply(200, 'ok'));
    expect(await post()).toMatchObject({ ok: true, statusCode: 200 });
  });

  it('fails, without a second try, when a fresh connection is reset', async () => {
    setConnectionReuse(false);
    receiver.respondWith((req) => req.socket.destroy());
    const outcome = await post();
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toMatch(/^network_error: /);
    expect(receiver.received).toHaveLength(1);
  });
});
