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
  version: ApiVersion;
}

/**
 * A request that counts as `weight` (a batch of usage reports) draws the rest after its one: the
 * headers to answer with, or a 429 that records nothing (docs/api.md#rate-limits).
 */
export async function drawMore(merchant: AuthenticatedMerchant, bucket: LimitBucket, weight: number): Promise<Record<string, string>> {
  const result = await getRateLimiter().limit(bucket, merchant.apiKey, weight - 1);
  const headers = rateLimitHeaders(result);
  if (!result.success) throw new ApiError('rate_limited', `Too many requests: at most ${result.limit} a minute for this api_key, and this one counts ${weight}`, { headers });
  return headers;
}

/** Bearer credentials, then the rate limit, then the handler with the request's API version. */
export function withMerchant<P = Record<string, never>>(
  handler: (req: Request, ctx: MerchantContext<P>) => Promise<Response>,
  options: { limit: LimitBucket },
) {
  return withApi<P>(async (req, ctx) => {
    const database = await getDatabase();
    const { db } = database;
    const merchant = await authenticateMerchant(db, req.headers.get('authorization'), keyCacheOf(database));
    if (merchant.readOnly && req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError('forbidden', 'This api_key is read-only: it may only read (GET)');
    const result = await getRateLimiter().limit(options.limit, merchant.apiKey);
    const headers = rateLimitHeaders(result);
    if (!result.success) {
      throw new ApiError('rate_limited', `Too many requests: at most ${result.limit} a minute for this api_key`, { headers });
    }
    const version = requestedVersion(req, merchant.pinnedVersion, headers);
    return withResponseHeaders({ ...headers, [VERSION_HEADER]: version }, () => handler(req, { ...ctx, merchant, db, version }));
  }, { refuse: missingCredentials });
}
