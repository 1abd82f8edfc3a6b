import type { NextRequest } from 'next/server';
import { randomBase62 } from '@/lib/ids';
import { errorFields, log, redactPath, withRequestLog } from '@/lib/log';
import { ApiError, errorBody } from './errors';

export interface ApiContext<P> {
  params: P;
  requestId: string;
}

type RouteContext<P> = { params: Promise<P> };
export type ApiHandler<P> = (req: Request, ctx: ApiContext<P>) => Promise<Response>;

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's own X-Request-Id when it is a sane one, else a new `req_` id. */
export function requestIdOf(req: Pick<Request, 'headers'>): string {
  const incoming = req.headers.get('x-request-id');
  return incoming && VALID_REQUEST_ID.test(incoming) ? incoming : `req_${randomBase62(24)}`;
}

export function errorResponse(error: ApiError, requestId: string): Response {
  const response = Response.json(errorBody(error, requestId), { status: error.status, headers: error.options.headers });
  // A 413 is sent before the body is read: the rest of it is still on the socket, and a client
  // reusing the connection would have its next request read as that body. Close it instead.
  if (error.code === 'payload_too_large') response.headers.set('Connection', 'close');
  return response;
}

/**
 * The outer wrapper of every API route: request id, the docs/api.md#conventions error body, one JSON log line
 * per request. Every line logged while the request runs carries its request id (lib/log.ts);
 * unknown errors are logged and answered with a bare 500.
 */
export function withApi<P = Record<string, never>>(handler: ApiHandler<P>) {
  return async (req: Request, route: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    return withRequestLog(requestId, async () => {
      let response: Response;
      try {
        response = await handler(req, { params: await route.params, requestId });
      } catch (error) {
        if (error instanceof ApiError) {
          response = errorResponse(error, requestId);
        } else {
          log.error('unhandled error', errorFields(error));
          response = errorResponse(new ApiError('internal_error', 'Something went wrong on our side'), requestId);
        }
      }
      response.headers.set('X-Request-Id', requestId);
      log.info('request', {
        method: req.method,
        // Next hands route handlers a NextRequest, its URL already parsed.
        path: redactPath(((req as Partial<NextRequest>).nextUrl ?? new URL(req.url)).pathname),
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
      return response;
    });
  };
}

/** Runs `work` and sets `headers` on its answer, whether a response or an ApiError it throws. */
export async function withResponseHeaders(headers: Record<string, string>, work: () => Promise<Response>): Promise<Response> {
  try {
    const response = await work();
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (error instanceof ApiError) {
      throw new ApiError(error.code, error.message, { ...error.options, headers: { ...headers, ...error.options.headers } });
    }
    throw error;
  }
}
