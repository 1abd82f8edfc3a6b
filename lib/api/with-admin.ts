import { safeEqual } from '@/lib/auth/secrets';
import { env } from '@/lib/env';
import { ApiError, bearerUnauthorized } from './errors';
import { type ApiHandler, withApi } from './handler';

/** 404 while ADMIN_API_TOKEN is unset, 401 for a wrong token. */
export function withAdmin<P = Record<string, never>>(handler: ApiHandler<P>) {
  return withApi<P>(async (req, ctx) => {
    const expected = env().ADMIN_API_TOKEN;
    if (!expected) throw new ApiError('not_found', 'Not found');
    const header = req.headers.get('authorization') ?? '';
    const presented = /^Bearer (.+)$/.exec(header)?.[1] ?? '';
    if (!safeEqual(presented, expected)) throw bearerUnauthorized('A valid operator token is required');
    return handler(req, ctx);
  });
}
