import https from 'node:https';
import net from 'node:net';
import { isPublicAddress, type LookupFunction, PrivateAddressError, publicOnlyLookup } from './address-guard';

// One HTTPS POST of a webhook and what became of it (DECISIONS 8): 10 s for the whole exchange,
// redirects not followed, only 2xx is success, the first 2 KiB of the reply kept. Nothing here
// retries. A fresh connection per delivery: a receiver's keep-alive socket must not carry one
// merchant's traffic past a later address check.

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 2048;

export interface PostRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Lets the POST reach loopback and private addresses (WEBHOOK_ALLOW_PRIVATE_NETWORK). */
  allowPrivateNetwork: boolean;
  timeoutMs?: number;
  /** The DNS resolver (tests stub it); the address guard checks what it returns. */
  resolve?: LookupFunction;
}

export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** Why it failed, as `<kind>: <detail>`; null for a 2xx or a plain non-2xx reply. */
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
  // An IP literal never goes through the lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!request.allowPrivateNetwork && net.isIP(literal) && !isPublicAddress(literal)) {
    return failed(`private_address: ${new PrivateAddressError(literal).message}`);
  }
  const lookup = request.allowPrivateNetwork ? request.resolve : publicOnlyLookup(request.resolve);

  return new Promise<PostOutcome>((resolve) => {
    let timedOut = false;
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = https.request(url, {
      method: 'POST',
      agent: false,
      headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
      ...(lookup ? { lookup } : {}),
    });
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error('timeout'));
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish(failed(describe(error, timedOut, timeoutMs))));
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
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
        // The excerpt is all we keep: stop reading a long reply once we have it.
        if (size >= RESPONSE_EXCERPT_BYTES) done();
      });
      res.on('end', done);
      res.on('error', (error: NodeJS.ErrnoException) => finish(failed(describe(error, timedOut, timeoutMs))));
    });
    req.end(request.body);
  });
}
