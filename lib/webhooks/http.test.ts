import { describe, expect, it } from 'vitest';
import { stubResolver } from '@/test/network-tripwire';
import { fileReceiver } from '@/test/receiver-hooks';
import { hang, reply, startReceiver } from '@/test/webhook-receiver';
import { isPublicAddress } from './address-guard';
import { DELIVERY_TIMEOUT_MS, postWebhook, type PostRequest } from './http';

const body = '{"event":"subscription.charge.approved"}';
const base = { body, headers: { 'Content-Type': 'application/json' } };

const receiver = fileReceiver();

const post = (request: Partial<PostRequest> = {}) => postWebhook({ url: receiver.url, allowPrivateNetwork: true, ...base, ...request });

describe('a POST to an HTTPS receiver trusted through the test CA', () => {
  it('sends the exact bytes and headers, and a 2xx is a success with the reply excerpt', async () => {
    receiver.respondWith(reply(200, 'received'));
    const outcome = await post({ headers: { 'Content-Type': 'application/json', 'X-Webhook-Id': 'evt_1' } });
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, error: null, responseExcerpt: 'received' });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toBe(body);
    expect(receiver.received[0]!.headers['x-webhook-id']).toBe('evt_1');
    expect(receiver.received[0]!.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it.each([404, 500, 410])('a %i is one failed attempt, not retried', async (status) => {
    receiver.respondWith(reply(status, `status ${status}`));
    const outcome = await post();
    expect(outcome).toMatchObject({ ok: false, statusCode: status, error: null, responseExcerpt: `status ${status}` });
    expect(receiver.received).toHaveLength(1);
  });

  it('keeps only the first 2 KiB of a long reply', async () => {
    receiver.respondWith(reply(200, 'x'.repeat(100_000)));
    const outcome = await post();
    expect(outcome.ok).toBe(true);
    expect(outcome.responseExcerpt).toBe('x'.repeat(2048));
  });

  it.each([301, 308])('does not follow a %i: a failure, and the target is never called', async (status) => {
    const target = await startReceiver();
    try {
      receiver.respondWith(reply(status, '', { Location: target.url }));
      const outcome = await post();
      expect(outcome).toMatchObject({ ok: false, statusCode: status, error: `redirect_not_followed: ${target.url}` });
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it(`aborts a receiver that hangs at ${DELIVERY_TIMEOUT_MS / 1000} s and records a timeout`, async () => {
    receiver.respondWith(hang);
    const started = Date.now();
    const outcome = await post();
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: 'timeout: no complete reply within 10 s' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS - 50);
    expect(receiver.received).toHaveLength(1);
  });

  it('records a refused connection', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    expect(await post({ url })).toMatchObject({ ok: false, statusCode: null, error: 'connection_refused: nothing accepted the connection' });
  });

  it('refuses a certificate nobody trusts, before sending anything', async () => {
    const untrusted = await startReceiver({ certificate: 'untrusted' });
    try {
      const outcome = await post({ url: untrusted.url });
      expect(outcome).toMatchObject({ ok: false, statusCode: null });
      expect(outcome.error).toMatch(/^tls_error: /);
      expect(untrusted.received).toHaveLength(0);
    } finally {
      await untrusted.close();
    }
  });

  it('refuses a non-https URL without connecting', async () => {
    expect(await post({ url: receiver.url.replace('https:', 'http:') })).toMatchObject({ ok: false, error: 'invalid_url: webhook URLs must be https' });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('the private-network guard (WEBHOOK_ALLOW_PRIVATE_NETWORK off)', () => {
  // Names resolve through a stub: nothing here asks real DNS, and the tripwire would stop (and
  // fail the test on) any connection outside loopback.
  const resolve = stubResolver({
    'loopback.test': ['127.0.0.1'],
    'private.test': ['10.0.0.5'],
    'metadata.test': ['169.254.169.254'],
    'v6-loopback.test': ['::1'],
    'mixed.test': ['93.184.216.34', '192.168.1.10'],
    'mapped.test': ['::ffff:10.1.2.3'],
    'cgnat.test': ['100.64.0.1'],
    'ula.test': ['fd00::1'],
  });

  it.each(['loopback.test', 'private.test', 'metadata.test', 'v6-loopback.test', 'mixed.test', 'mapped.test', 'cgnat.test', 'ula.test'])(
    'refuses %s at connect time, before any connection',
    async (host) => {
      const outcome = await postWebhook({ ...base, url: `https://${host}:${receiver.port}/webhooks`, allowPrivateNetwork: false, resolve });
      expect(outcome).toMatchObject({ ok: false, statusCode: null });
      expect(outcome.error).toMatch(/^private_address: refused to connect to a non-public address/);
      expect(receiver.received).toHaveLength(0);
    },
  );

  it.each(['127.0.0.1', '10.0.0.5', '169.254.169.254', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0'])(
    'refuses the literal address %s without connecting',
    async (host) => {
      const outcome = await postWebhook({ ...base, url: `https://${host}:${receiver.port}/webhooks`, allowPrivateNetwork: false });
      expect(outcome.error).toMatch(/^private_address: /);
      expect(receiver.received).toHaveLength(0);
    },
  );

  it('lets the switch reach a loopback receiver by name', async () => {
    const outcome = await postWebhook({ ...base, url: `https://loopback.test:${receiver.port}/webhooks`, allowPrivateNetwork: true, resolve });
    // The certificate names localhost and 127.0.0.1, not loopback.test: TLS refuses the name,
    // which shows the connection was made (to 127.0.0.1) and the guard did not stop it.
    expect(outcome.error).toMatch(/^tls_error: ERR_TLS_CERT_ALTNAME_INVALID/);
  });

  it('tells public from non-public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) expect(isPublicAddress(address)).toBe(true);
    for (const address of ['127.0.0.1', '10.1.1.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1',
      '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12::1', '::ffff:192.168.1.1', '::ffff:7f00:1', '::ffff:8.8.8.8',
      'not-an-ip']) {
      expect(isPublicAddress(address)).toBe(false);
    }
  });
});
