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

export function requestIdOf(req: Pick<Request, 'headers'>): string {
  const incoming = req.headers.get('x-request-id');
  return incoming && VALID_REQUEST_ID.test(incoming) ? incoming : `req_${randomBase62(24)}`;
}

/** gzip cost more than it saved on smaller replies. */
const COMPRESS_FROM_BYTES = 1024;

interface JsonInit {
  status?: number;
  headers?: Record<string, string>;
}

/** `no-store` unless the route says otherwise, `no-transform` when small. */
export function jsonTextResponse(text: string, { status = 200, headers }: JsonInit = {}): Response {
  const cacheControl = Buffer.byteLength(text) < COMPRESS_FROM_BYTES ? 'no-store, no-transform' : 'no-store';
  return new Response(text, { status, headers: { 'Cache-Control': cacheControl, ...headers, 'Content-Type': 'application/json' } });
}

export function jsonResponse(data: unknown, init?: JsonInit): Response {
  return jsonTextResponse(JSON.stringify(data), init);
}

export function errorResponse(error: ApiError, requestId: string): Response {
  const response = jsonResponse(errorBody(error, requestId), { status: error.status, headers: error.options.headers });
  // A 413 goes before the body is read: the rest is still on the socket, so the connection closes.
  if (error.code === 'payload_too_large') response.headers.set('Connection', 'close');
  return response;
}

interface ApiOptions {
  /** Synchronous (no await, no database): what it refuses is answered at once. */
  refuse?: (req: Request) => ApiError | undefined;
}

/** Request id, error body, one log line per request. Database out of reach: 503 with Retry-After; else a logged 500. */
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

function answered(req: Request, response: Response, requestId: string, started: number): Response {
  response.headers.set('X-Request-Id', requestId);
  log.info('request', {
    // A refused request is answered outside the log scope.
    requestId,
    method: req.method,
    path: redactPath(((req as Partial<NextRequest>).nextUrl ?? new URL(req.url)).pathname),
    status: response.status,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  });
  return response;
}

/** Sets `headers` on a response or a thrown ApiError alike. */
export async function withResponseHeaders(headers: Record<string, string>, work: () => Promise<Response>): Promise<Response> {
  try {
    const response = await work();
    // The handler's own (a batch's rate-limit headers) stand.
    for (const [name, value] of Object.entries(headers)) if (!response.headers.has(name)) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (error instanceof ApiError) {
      throw new ApiError(error.code, error.message, { ...error.options, headers: { ...headers, ...error.options.headers } });
    }
    throw error;
  }
}
