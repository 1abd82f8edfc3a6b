import { type Db, getDb } from '@/db/client';
import { getRateLimiter, type LimitBucket, rateLimitHeaders } from '@/lib/rate-limit';
import { ApiError } from './errors';
import { type ApiContext, withApi, withResponseHeaders } from './handler';

/** The last X-Forwarded-For entry, added by our proxy (docs/operations.md). */
export function clientIp(req: Pick<Request, 'headers'>): string {
  const forwarded = req.headers.get('x-forwarded-for');
  return forwarded?.split(',').at(-1)?.trim() || req.headers.get('x-real-ip') || 'unknown';
}

// The token in these URLs is a secret: never cached, never a referrer; the answers load and frame nothing.
const CHECKOUT_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

/** No credentials, a per-IP limit, never cached. */
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
