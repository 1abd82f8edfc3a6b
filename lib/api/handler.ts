import type { NextRequest } from 'next/server';
import { randomBase62 } from '@/lib/ids';
import { errorFields, log, redactPath, withRequestLog } from '@/lib/log';
import { databaseUnavailable } from '@/db/errors';
import { ApiError, errorBody, serviceUnavailable } from './errors';

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

// Performance (docs/performance.md): small replies not gzipped.
/** Replies under this many bytes go uncompressed: gzip cost more than it saved on them (docs/benchmarks.md). */
const COMPRESS_FROM_BYTES = 1024;

interface JsonInit {
  status?: number;
  headers?: Record<string, string>;
}

/** Every JSON reply of the API: `no-store` unless the route says otherwise, `no-transform` when small. */
export function jsonTextResponse(text: string, { status = 200, headers }: JsonInit = {}): Response {
  const cacheControl = Buffer.byteLength(text) < COMPRESS_FROM_BYTES ? 'no-store, no-transform' : 'no-store';
  return new Response(text, { status, headers: { 'Cache-Control': cacheControl, ...headers, 'Content-Type': 'application/json' } });
}

/** jsonTextResponse of `data` serialized (what Response.json would send, with the headers above). */
export function jsonResponse(data: unknown, init?: JsonInit): Response {
  return jsonTextResponse(JSON.stringify(data), init);
}

export function errorResponse(error: ApiError, requestId: string): Response {
  const response = jsonResponse(errorBody(error, requestId), { status: error.status, headers: error.options.headers });
  // A 413 is sent before the body is read: the rest of it is still on the socket, and a client
  // reusing the connection would have its next request read as that body. Close it instead.
  if (error.code === 'payload_too_large') response.headers.set('Connection', 'close');
  return response;
}

interface ApiOptions {
  /** A synchronous check before anything else (no await, no database): what it refuses is answered at once. */
  refuse?: (req: Request) => ApiError | undefined;
}

/**
 * The outer wrapper of every API route: request id, the error body, one log line per request. The
 * database out of reach is a 503 with Retry-After; any other unknown error a logged bare 500.
 */
export function withApi<P = Record<string, never>>(handler: ApiHandler<P>, { refuse }: ApiOptions = {}) {
  return (req: Request, route: RouteContext<P>): Response | Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    const refused = refuse?.(req);
    if (refused) return answered(req, errorResponse(refused, requestId), requestId, started);
    return withRequestLog(requestId, async () => {
      let response: Response;
      try {
        response = await handler(req, { params: await route.params, requestId });
      } catch (error) {
        if (error instanceof ApiError) {
          response = errorResponse(error, requestId);
        } else if (databaseUnavailable(error)) {
          // Not a fault of the request: the same request succeeds once the database is back.
          log.warn('database unavailable; answered 503', errorFields(error));
          response = errorResponse(serviceUnavailable(), requestId);
        } else {
          log.error('unhandled error', errorFields(error));
          response = errorResponse(new ApiError('internal_error', 'Something went wrong on our side'), requestId);
        }
      }
      return answered(req, response, requestId, started);
    });
  };
}

/** `response` with its request id, and the request's log line. */
function answered(req: Request, response: Response, requestId: string, started: number): Response {
  response.headers.set('X-Request-Id', requestId);
  log.info('request', {
    // Named here too: a refused request is answered outside the log scope.
    requestId,
    method: req.method,
    // Next hands route handlers a NextRequest, its URL already parsed.
    path: redactPath(((req as Partial<NextRequest>).nextUrl ?? new URL(req.url)).pathname),
    status: response.status,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  });
  return response;
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
