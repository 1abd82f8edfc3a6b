import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { testCertificates } from './tls';

// A real HTTPS webhook receiver on loopback for tests, with a certificate from the test CA (or
// an untrusted one). It records every request as received: raw body bytes and headers.

export interface ReceivedWebhook {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Responder = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** TLS connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  readonly connections: number;
  respondWith(responder: Responder): void;
  /** Closes the connections that carry no request, as a server does when their keep-alive ends. */
  closeIdleConnections(): void;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export const reply =
  (status: number, body = '', headers: Record<string, string> = {}): Responder =>
  (_req, res) => {
    res.writeHead(status, headers).end(body);
  };

/** Never answers: the connection stays open until the receiver closes. */
export const hang: Responder = () => {};

export async function startReceiver(
  { certificate = 'trusted', host = '127.0.0.1', path = '/webhooks' }: { certificate?: 'trusted' | 'untrusted'; host?: string; path?: string } = {},
): Promise<Receiver> {
  const certs = testCertificates();
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  let responder: Responder = reply(200, 'ok');
  const server = https.createServer(certificate === 'trusted' ? certs.server : certs.untrusted, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', headers: req.headers, body });
      for (const wake of waiters) wake();
      responder(req, res, body);
    });
  });
  let connections = 0;
  server.on('secureConnection', () => {
    connections += 1;
  });
  // A TLS handshake the client refuses is expected in some tests, not an error of the receiver.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    url: `https://${hostPart}:${port}${path}`,
    port,
    received,
    get connections() {
      return connections;
    },
    respondWith: (next) => {
      responder = next;
    },
    closeIdleConnections: () => server.closeIdleConnections(),
    waitFor: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} webhook(s), got ${received.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
