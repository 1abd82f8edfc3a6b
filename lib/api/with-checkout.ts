import { type Db, getDb } from '@/db/client';
import { getRateLimiter, type LimitBucket, rateLimitHeaders } from '@/lib/rate-limit';
import { ApiError } from './errors';
import { type ApiContext, withApi, withResponseHeaders } from './handler';

/**
 * The client's address for the per-IP limit: the last X-Forwarded-For entry, the one our proxy
 * added (docs/operations.md: instances run behind one); entries left of it are the client's.
 */
export function clientIp(req: Pick<Request, 'headers'>): string {
  const forwarded = req.headers.get('x-forwarded-for');
  return forwarded?.split(',').at(-1)?.trim() || req.headers.get('x-real-ip') || 'unknown';
}

// The token in these URLs is a secret: nobody caches an answer (every API reply is no-store,
// lib/api/handler.ts), and nothing is sent as a referrer. The answers are data, never a document:
// they may load nothing and be framed by nobody.
const CHECKOUT_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

/** Public checkout routes (docs/api.md#checkout-session): no credentials, the route's limit per client IP, never cached. */
export function withCheckout<P>(handler: (req: Request, ctx: ApiContext<P> & { db: Db }) => Promise<Response>, options: { limit: LimitBucket }) {
  return withApi<P>(async (req, ctx) => {
    const result = await getRateLimiter().limit(options.limit, clientIp(req));
    const headers = { ...rateLimitHeaders(result), ...CHECKOUT_HEADERS };
    return withResponseHeaders(headers, async () => {
      if (!result.success) throw new ApiError('rate_limited', 'Too many requests from this address; wait a moment');
      return handler(req, { ...ctx, db: await getDb() });
    });
  });
}
