import type { ClientRequest } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPublicAddress, type LookupFunction, PrivateAddressError, publicOnlyLookup } from './address-guard';
import { agentFor } from './connections';

// One HTTPS POST of a webhook: 10 s in all, no redirects, 2xx only, 2 KiB of the reply kept; only a
// POST never written is retried. The address guard runs on each new socket.

export const DELIVERY_TIMEOUT_MS = 10_000;
const RESPONSE_EXCERPT_BYTES = 2048;

export interface PostRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORK */
  allowPrivateNetwork: boolean;
  timeoutMs?: number;
  /** Tests stub it; the address guard checks what it returns. */
  resolve?: LookupFunction;
}

export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** `<kind>: <detail>`; null for a 2xx or a plain non-2xx reply. */
  error: string | null;
  responseExcerpt: string | null;
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

function describe(error: NodeJS.ErrnoException, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timeout: no complete reply within ${timeoutMs / 1000} s`;
  if (error instanceof PrivateAddressError) return `private_address: ${error.message}`;
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused: nothing accepted the connection';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `dns_error: ${code} resolving the host`;
  if (TLS_CODES.test(code)) return `tls_error: ${code}`;
  return `network_error: ${code || error.message}`;
}

export async function postWebhook(request: PostRequest): Promise<PostOutcome> {
  const timeoutMs = request.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): PostOutcome => ({ ok: false, statusCode: null, latencyMs: elapsed(), error, responseExcerpt: null });

  const url = new URL(request.url);
  if (url.protocol !== 'https:') return failed('invalid_url: webhook URLs must be https');
  // An IP literal skips the lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!request.allowPrivateNetwork && net.isIP(literal) && !isPublicAddress(literal)) {
    return failed(`private_address: ${new PrivateAddressError(literal).message}`);
  }
  const lookup = request.allowPrivateNetwork ? request.resolve : publicOnlyLookup(request.resolve);
  const agent = agentFor(url, { guarded: !request.allowPrivateNetwork, resolve: request.resolve });

  return new Promise<PostOutcome>((resolve) => {
    let timedOut = false;
    let settled = false;
    let current: ClientRequest | undefined;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      current?.destroy(new Error('timeout'));
    }, timeoutMs);

    const send = (fresh: boolean) => {
      const req = https.request(url, {
        method: 'POST',
        agent: fresh ? false : (agent ?? false),
        headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
        ...(lookup ? { lookup } : {}),
      });
      current = req;
      let written = false;
      let abandoned = false;
      const write = () => {
        if (abandoned || req.destroyed) return;
        written = true;
        req.end(request.body);
      };
      // An idle kept-alive socket the receiver closed may still look open: it fails with nothing written.
      req.on('socket', () => (req.reusedSocket ? setImmediate(write) : write()));
      req.on('error', (error: NodeJS.ErrnoException) => {
        // Only a POST of which no byte was written goes again.
        if (abandoned) return;
        if (!fresh && !timedOut && req.reusedSocket && !written) {
          abandoned = true;
          return send(true);
        }
        finish(failed(describe(error, timedOut, timeoutMs)));
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
          const redirect = status >= 300 && status < 400;
          finish({
            ok: status >= 200 && status < 300,
            statusCode: status,
            latencyMs: elapsed(),
            error: redirect ? `redirect_not_followed: ${res.headers.location ?? 'no Location'}` : null,
            responseExcerpt: excerpt,
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          // The excerpt is all we keep: stop reading and drop the socket.
          if (size >= RESPONSE_EXCERPT_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', (error: NodeJS.ErrnoException) => finish(failed(describe(error, timedOut, timeoutMs))));
      });
    };
    send(false);
  });
}
