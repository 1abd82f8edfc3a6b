import { type Db, getDatabase } from '@/db/client';
import { type AuthenticatedMerchant, authenticateMerchant, missingCredentials } from '@/lib/api/authenticate';
import { keyCacheOf } from '@/lib/auth/key-cache';
import { getRateLimiter, type LimitBucket, rateLimitHeaders } from '@/lib/rate-limit';
import { type ApiVersion, VERSION_HEADER } from '@/lib/api-versions';
import { ApiError } from './errors';
import { requestedVersion } from './version-header';
import { type ApiContext, withApi, withResponseHeaders } from './handler';

interface MerchantContext<P> extends ApiContext<P> {
  merchant: AuthenticatedMerchant;
  db: Db;
  /** The version this request is answered in, named on the reply (docs/api.md#versioning). */
  version: ApiVersion;
}

/**
 * Every merchant route (STYLE: one wrapper): Bearer credentials, the route's rate limit per
 * api_key with RateLimit-* headers on every answer after authentication (a 401 carries none),
 * then the handler, told the API version the request is answered in (its `ServicePay-Version`, else
 * the merchant's pinned one; every answer after authentication names it). A request without
 * credentials is refused before any of it. Errors map to the
 * docs/api.md#conventions body in withApi.
 */
export function withMerchant<P = Record<string, never>>(
  handler: (req: Request, ctx: MerchantContext<P>) => Promise<Response>,
  options: { limit: LimitBucket },
) {
  return withApi<P>(async (req, ctx) => {
    const database = await getDatabase();
    const { db } = database;
    const merchant = await authenticateMerchant(db, req.headers.get('authorization'), keyCacheOf(database));
    const result = await getRateLimiter().limit(options.limit, merchant.apiKey);
    const headers = rateLimitHeaders(result);
    if (!result.success) {
      throw new ApiError('rate_limited', `Too many requests: at most ${result.limit} a minute for this api_key`, { headers });
    }
    const version = requestedVersion(req, merchant.pinnedVersion, headers);
    return withResponseHeaders({ ...headers, [VERSION_HEADER]: version }, () => handler(req, { ...ctx, merchant, db, version }));
  }, { refuse: missingCredentials });
}
