import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { answerUnparsable, flushHeadersWithFirstChunk, guardRequest, HSTS, LINGER, readableRouterState, repairTarget, routePattern } from './request-guard';

describe('repairTarget', () => {
  it.each([
    ['/merchants/plans/%ZZ/status', '/merchants/plans/_/status'],
    ['/checkout/session/%ZZ', '/checkout/session/_'],
    ['/pay/%ZZ', '/pay/_'],
    ['/pay/%C0%AF', '/pay/_'],
    ['/checkout/session/abc%', '/checkout/session/_'],
    ['/pay/%E0%A4%A?lang=en', '/pay/_?lang=en'],
    ['/merchants/subscription-plans/%/cancel', '/merchants/subscription-plans/_/cancel'],
  ])('replaces the undecodable segment of %s', (target, repaired) => {
    expect(repairTarget(target)).toBe(repaired);
  });

  it('leaves a well-formed target alone (null), percent-encoding and odd queries included', () => {
    for (const target of ['/pay/abcdefghij', '/pay/%41bc', '/checkout/session/x%20y', '/api/health?x=%ZZ', '/']) expect(repairTarget(target)).toBeNull();
  });
});

/** A raw HTTP/1.1 exchange on loopback: what the server wrote back. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

describe('guardRequest in front of a server', () => {
  let server: http.Server;
  let port: number;
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (guardRequest(req, res, new Set(['/widget.js']))) return;
      seen.push(`${req.method} ${req.url}${req.headers.range ? ` range=${req.headers.range}` : ''}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // (TRACK and unknown methods never get this far: Node's parser answers them with a 400.)
  it('answers TRACE with a JSON 405 and a request id, and closes the connection', async () => {
    const method = 'TRACE';
    const reply = await raw(port, `${method} /api/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: req_fuzz_1\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 405 /);
    expect(reply).toMatch(/\r\nx-request-id: req_fuzz_1\r\n/i);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(reply).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'method_not_allowed', message: `${method} is not supported`, requestId: 'req_fuzz_1' },
    });
  });

  it('refuses a method other than GET and HEAD on a public file, and serves it whole for any Range', async () => {
    const reply = await raw(port, 'POST /widget.js HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 405 /);
    expect(reply).toMatch(/\r\nallow: GET, HEAD\r\n/i);
    seen.length = 0;
    await raw(port, 'GET /widget.js HTTP/1.1\r\nHost: x\r\nRange: bytes=5-1\r\nConnection: close\r\n\r\n');
    await raw(port, 'GET /other HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\nConnection: close\r\n\r\n');
    expect(seen).toEqual(['GET /widget.js', 'GET /other range=bytes=0-1']);
    seen.length = 0;
  });

  it('hands a repaired target on, and an ordinary one unchanged', async () => {
    await raw(port, 'GET /pay/%C0%AF HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await raw(port, 'GET /pay/abcdefghij HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(seen).toEqual(['GET /pay/_', 'GET /pay/abcdefghij']);
  });

  // Next.js threw on it while rendering any page, the not-found page too: the fuzz run of seed
  // 1056195183 met it as a GET of /checkout/session/./payments/txn_… and a HEAD of /nope/<token>.
  it.each(['GET /checkout/session/./payments/txn_0Vc4LdyRXW6x0cFRHJXZN8dQ', 'HEAD /nope/dqGP3XJRxN', 'GET /pay/abcdefghij'])(
    'answers %s from the client router with a router state it cannot read with a JSON 400 and a request id',
    async (line) => {
      seen.length = 0;
      const reply = await raw(port, `${line} HTTP/1.1\r\nHost: x\r\nRSC: 1\r\nNext-Router-State-Tree: %%%\r\nX-Request-Id: req_fuzz_2\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toMatch(/\r\nx-request-id: req_fuzz_2\r\n/i);
      if (line.startsWith('GET')) {
        expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({
          error: { code: 'invalid_request', message: 'The Next-Router-State-Tree header could not be read', requestId: 'req_fuzz_2' },
        });
      }
      expect(seen).toEqual([]);
    },
  );

  it('puts X-Content-Type-Options: nosniff on every response, its own refusals and what it hands on', async () => {
    const refused = await raw(port, 'TRACE / HTTP/1.1\r\nHost: x\r\n\r\n');
    const passed = await raw(port, 'GET /other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    for (const reply of [refused, passed]) expect(reply).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    // Not a production deployment (tests): no HSTS, which would pin a developer's localhost to HTTPS.
    for (const reply of [refused, passed]) expect(reply).not.toMatch(/strict-transport-security/i);
    seen.length = 0;
  });

  it.each([
    ['a production deployment', '', true],
    ['a sandbox deployment', '1', false],
  ])('on %s, every response carries Strict-Transport-Security only if production', async (_name, sandbox, sent) => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('SANDBOX_DEPLOYMENT', sandbox);
    vi.stubEnv('BETTER_AUTH_SECRET', 'request-guard-test-secret-0123456789abcdef');
    resetEnvForTests();
    try {
      const refused = await raw(port, 'TRACE / HTTP/1.1\r\nHost: x\r\n\r\n');
      const passed = await raw(port, 'GET /other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      for (const reply of [refused, passed]) {
        if (sent) expect(reply).toMatch(new RegExp(`\r\nstrict-transport-security: ${HSTS}\r\n`, 'i'));
        else expect(reply).not.toMatch(/strict-transport-security/i);
      }
    } finally {
      vi.unstubAllEnvs();
      resetEnvForTests();
      seen.length = 0;
    }
  });
});

describe('readableRouterState', () => {
  // What Next's client router sends on a navigation: its router state, as URI-encoded JSON.
  const navigation = encodeURIComponent(JSON.stringify(['', { children: ['portal', { children: ['__PAGE__', {}] }] }, null, null]));

  it('accepts what the client router sends, and any request that is not one of its (RSC not 1)', () => {
    expect(readableRouterState({ rsc: '1', 'next-router-state-tree': navigation })).toBe(true);
    expect(readableRouterState({ rsc: '1' })).toBe(true);
    expect(readableRouterState({ 'next-router-state-tree': '%%%' })).toBe(true);
    expect(readableRouterState({ rsc: '0', 'next-router-state-tree': '%%%' })).toBe(true);
  });

  it.each([
    ['not URI-encoded', '%%%'],
    ['not JSON', 'abc'],
    ['not a router state', encodeURIComponent('{"children":1}')],
    ['over 40,000 characters', encodeURIComponent(JSON.stringify(['', {}, null, null, null, 'x'.repeat(40_000)]))],
  ])('refuses one %s', (_what, state) => {
    expect(readableRouterState({ rsc: '1', 'next-router-state-tree': state })).toBe(false);
  });
});

describe('routePattern', () => {
  it.each([
    ['/merchants/transactions/[subscriptionTransactionId]/void/route', '/merchants/transactions/txn_1/void', '/merchants/transactions/void'],
    ['/portal/(app)/activity/plans/[planId]/page', '/portal/activity/plans/sub_1', '/portal/(app)/activity/plans/sub_1'],
    ['/api/openapi.json/route', '/api/openapi.json', '/api/openapiXjson'],
    ['/page', '/', '/x'],
  ])('%s serves %s, not %s', (entry, served, not) => {
    expect(routePattern(entry).test(served)).toBe(true);
    expect(routePattern(entry).test(not)).toBe(false);
  });
});

describe('guardRequest with the build’s routes and actions', () => {
  let server: http.Server;
  let port: number;
  const seen: string[] = [];
  const build = {
    paths: ['/merchants/transactions/[subscriptionTransactionId]/void/route', '/portal/(app)/settings/api/page'].map(routePattern),
    actions: new Set(['00ab']),
  };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (guardRequest(req, res, new Set(), build)) return;
      seen.push(`${req.method} ${req.url}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    'POST /merchants/transactions/./void',
    'POST /merchants/subscription-plans/%2e%2e/cancel',
    'POST /merchants/transactions/txn_1/../void',
    'PUT /nope',
  ])('answers %s, which no route serves, with a JSON 404 and a request id', async (line) => {
    const reply = await raw(port, `${line} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data\r\nContent-Length: 3\r\n\r\nabc`);
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    expect(reply).toMatch(/x-request-id: req_/i);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).error.code).toBe('not_found');
  });

  it('answers an action the build does not have with a JSON 404, and passes one it has', async () => {
    const unknown = await raw(port, 'POST /portal/settings/api HTTP/1.1\r\nHost: x\r\nNext-Action: 7f00\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    expect(unknown).toMatch(/^HTTP\/1\.1 404 /);
    const known = await raw(port, 'POST /portal/settings/api HTTP/1.1\r\nHost: x\r\nNext-Action: 00ab\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    expect(known).toMatch(/^HTTP\/1\.1 200 /);
    expect(seen).toEqual(['POST /portal/settings/api']);
  });

  it('lets through what a route serves, and every GET (pages answer their own 404)', async () => {
    seen.length = 0;
    await raw(port, 'POST /merchants/transactions/txn_1/void HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    await raw(port, 'GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(seen).toEqual(['POST /merchants/transactions/txn_1/void', 'GET /nope']);
  });
});

describe('answerUnparsable', () => {
  /** Sends `head` and `bodyBytes` of body at once, as a client that does not wait for an answer; what came back, and the error that ended it if any. */
  function send(port: number, head: string, bodyBytes: number): Promise<{ reply: string; error?: string }> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(head);
        socket.end(Buffer.alloc(bodyBytes, 'y'));
      });
      let reply = '';
      let error: string | undefined;
      socket.on('data', (chunk) => (reply += chunk));
      socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
      socket.on('close', () => resolve({ reply, error }));
    });
  }

  async function serve() {
    const server = http.createServer((_req, res) => res.end('ok'));
    server.on('clientError', answerUnparsable);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }

  // The fuzz's 48 transport errors of seed 1056195183: an unknown method with a 70 KB body (and
  // bodies sent with no Content-Length, whose bytes Node then parsed as a request) got a reset.
  it('answers an unknown method with a body with 400, then closes without resetting the connection', async () => {
    const { server, port } = await serve();
    try {
      for (const bodyBytes of [0, 71_719, 512 * 1024]) {
        const outcome = await send(port, `FOO /nope HTTP/1.1\r\nHost: x\r\nContent-Length: ${bodyBytes}\r\n\r\n`, bodyBytes);
        expect(outcome, `${bodyBytes} B`).toEqual({ reply: 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n', error: undefined });
      }
    } finally {
      server.close();
    }
  });

  it('answers bytes that are no request at all the same way, and Node\'s 431 for headers too large', async () => {
    const { server, port } = await serve();
    try {
      expect(await send(port, 'y'.repeat(100), 200_000)).toEqual({ reply: 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n', error: undefined });
      const huge = await send(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'k'.repeat(20_000)}\r\n\r\n`, 0);
      expect(huge.reply).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
    } finally {
      server.close();
    }
  });

  it('cuts a client that goes on sending past the limit', async () => {
    const { server, port } = await serve();
    try {
      const outcome = await send(port, 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', LINGER.bytes * 4);
      expect(outcome.error).toMatch(/ECONNRESET|EPIPE/);
    } finally {
      server.close();
    }
  });
});

describe('flushHeadersWithFirstChunk', () => {
  /**
   * A server whose handler runs `respond` with flushHeaders as given, counting the writes its socket
   * makes to the kernel (Writable's _write and _writev, one system call each).
   */
  async function serve(flushHeaders: http.ServerResponse['flushHeaders'], respond: (res: http.ServerResponse) => void) {
    let writes = 0;
    const server = http.createServer((_req, res) => {
      const socket = res.socket!;
      const write = socket._write.bind(socket);
      const writev = socket._writev!.bind(socket);
      socket._write = (...args) => (writes++, write(...args));
      socket._writev = (...args) => (writes++, writev(...args));
      res.flushHeaders = flushHeaders;
      respond(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port, writes: () => writes };
  }

  // What Next.js does with a route handler's reply, in promise callbacks (a web stream piped to the
  // response): headers flushed, then the body, then the end.
  const likeNext = (res: http.ServerResponse) => {
    void Promise.resolve()
      .then(() => {
        res.setHeader('Content-Type', 'application/json');
        res.flushHeaders();
        res.write('{"ok":true}');
      })
      .then(() => res.end());
  };

  it('sends the headers with a chunk written in the same tick, in one write instead of two', async () => {
    for (const [flush, expected] of [
      [http.OutgoingMessage.prototype.flushHeaders, 2],
      [flushHeadersWithFirstChunk, 1],
    ] as const) {
      const { server, port, writes } = await serve(flush, likeNext);
      const reply = await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      server.close();
      expect(reply).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: application\/json\r\n[\s\S]*\r\n\r\nb\r\n\{"ok":true\}\r\n0\r\n\r\n$/i);
      expect(writes()).toBe(expected);
    }
  });

  it('still sends the headers at once when no body follows in that tick', async () => {
    let finish = () => {};
    const { server, port } = await serve(flushHeadersWithFirstChunk, (res) => {
      res.flushHeaders();
      finish = () => res.end('late');
    });
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => http.get({ port, host: '127.0.0.1' }, resolve).on('error', reject));
    // The headers arrived while the body was still open.
    expect(response.statusCode).toBe(200);
    finish();
    let body = '';
    for await (const chunk of response) body += chunk;
    server.close();
    expect(body).toBe('late');
  });
});
