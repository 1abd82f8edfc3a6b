// The baseline of `npm run bench:api`: a bare node:http server doing the database work of
// POST /merchants/subscription-link and GET /merchants/plans/{id}/status with the very functions
// the routes call, the in-process rate limiter included. What it leaves out is what the ratio
// measures: Next.js, the Web Request/Response layer, and lib/api's wrapper (request id, one log
// line per request, error mapping).
//
// Run by bench/api.ts as `node --import tsx bench/bare-server.ts` with DATABASE_URL and PORT.
import http from 'node:http';
import { type Db, openPostgres } from '@/db/client';
import { getPlanWithLastTransaction } from '@/db/queries/plans';
import { MAX_BODY_BYTES, parseJsonObject, parseWith } from '@/lib/api/body';
import { ApiError, errorBody } from '@/lib/api/errors';
import { authenticateMerchant } from '@/lib/api/authenticate';
import { type KeyCache, keyCacheOf } from '@/lib/auth/key-cache';
import { env } from '@/lib/env';
import { createPaymentLink } from '@/lib/plans/create-link';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { createLinkBodySchema } from '@/lib/plans/schemas';
import { toPlanStatus } from '@/lib/plans/views';
import { getRateLimiter, type LimitBucket, rateLimitHeaders } from '@/lib/rate-limit';

const STATUS_PATH = /^\/merchants\/plans\/([^/?]+)\/status(?:\?|$)/;

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(new ApiError('payload_too_large', 'The body is larger than 64 KiB'));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function readJsonObject(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBody(req), req.headers['content-type'] ?? null);
}

/** The key cache, as withMerchant uses it. */
let keys: KeyCache;

/** Authentication and the route's rate limit, in withMerchant's order. */
async function merchantOf(db: Db, req: http.IncomingMessage, bucket: LimitBucket) {
  const merchant = await authenticateMerchant(db, req.headers.authorization ?? null, keys);
  const result = await getRateLimiter().limit(bucket, merchant.apiKey);
  const headers = rateLimitHeaders(result);
  if (!result.success) throw new ApiError('rate_limited', 'Too many requests', { headers });
  return { merchant, headers };
}

async function handle(db: Db, req: http.IncomingMessage): Promise<Reply> {
  const url = req.url ?? '/';
  if (req.method === 'POST' && url === '/merchants/subscription-link') {
    const { merchant, headers } = await merchantOf(db, req, 'create-link');
    const body = parseWith(createLinkBodySchema, await readJsonObject(req));
    const link = await createPaymentLink(db, merchant.merchantId, body);
    return { status: 200, body: link, headers };
  }
  const status = req.method === 'GET' ? STATUS_PATH.exec(url) : null;
  if (status) {
    const { merchant, headers } = await merchantOf(db, req, 'plan-status');
    const planId = decodeURIComponent(status[1]!);
    const found = await findMerchantPlan(db, planId, () =>
      getPlanWithLastTransaction(db, { merchantId: merchant.merchantId, planId }),
    );
    return { status: 200, body: toPlanStatus(found.plan, found.lastTransaction), headers };
  }
  return { status: 404, body: { error: { code: 'not_found' } } };
}

async function main() {
  const { DATABASE_URL, PORT } = env();
  if (!DATABASE_URL) throw new Error('bench/bare-server.ts needs DATABASE_URL');
  // openPostgres's default pool, as `next start` gets through openConfiguredDatabase.
  const database = await openPostgres(DATABASE_URL);
  const { db, close } = database;
  keys = keyCacheOf(database);

  const server = http.createServer((req, res) => {
    handle(db, req)
      .catch((error: unknown): Reply => {
        if (error instanceof ApiError) return { status: error.status, body: errorBody(error, 'bare'), headers: error.options.headers };
        console.error(error);
        return { status: 500, body: { error: { code: 'internal_error' } } };
      })
      .then(({ status, body, headers }) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      });
  });

  server.listen(PORT, '127.0.0.1', () => console.log(`bare server on http://127.0.0.1:${PORT}`));
  const stop = () => {
    server.closeAllConnections();
    server.close(() => void close().finally(() => process.exit(0)));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
