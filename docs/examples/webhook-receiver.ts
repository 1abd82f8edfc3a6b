import type { IncomingMessage, RequestListener } from 'node:http';
import { type ServicePayEvent, webhooks } from '@servicepay/node';

// A ServicePay webhook receiver for Node.js, with @servicepay/node. Mount it at your webhook URL (HTTPS).

export type { ServicePayEvent };

const MAX_BODY_BYTES = 64 * 1024;

async function readRawBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Verifies, de-duplicates and acknowledges each webhook, then hands it to `handle` after the
 * reply (ServicePay waits at most 10 s). `seen` must remember ids for at least a day (the
 * freshness window of webhooks.parse): use your database in production.
 */
export function servicePayWebhooks(options: {
  secret: string;
  handle: (event: ServicePayEvent) => Promise<void>;
  seen?: Set<string>;
}): RequestListener {
  const seen = options.seen ?? new Set<string>();
  return async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const body = await readRawBody(req);
    if (!body) return void res.writeHead(413).end();
    const signature = req.headers['x-webhook-signature'];
    // HMAC-SHA256 of the raw bytes with your secret, compared in constant time.
    if (!webhooks.verify(body, typeof signature === 'string' ? signature : undefined, options.secret)) {
      return void res.writeHead(401).end('invalid signature');
    }
    let event: ServicePayEvent;
    try {
      // The typed event, once its timestamp is within 24 h: an older body is a replay.
      event = webhooks.parse(body, signature as string, options.secret);
    } catch (error) {
      return void res.writeHead(400).end((error as Error).message);
    }
    const id = String(req.headers['x-webhook-id'] ?? '');
    if (seen.has(id)) return void res.writeHead(200).end('duplicate');
    seen.add(id);
    res.writeHead(200).end('ok');
    await options.handle(event).catch((error) => console.error('webhook handler failed', id, error));
  };
}
