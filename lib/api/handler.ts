import { randomBase62 } from '@/lib/ids';
import { errorFields, log, redactPath } from '@/lib/log';
import { ApiError, errorBody } from './errors';

export interface ApiContext<P> {
  params: P;
  requestId: string;
}

type RouteContext<P> = { params: Promise<P> };
export type ApiHandler<P> = (req: Request, ctx: ApiContext<P>) => Promise<Response>;

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestIdOf(req: Request): string {
  const incoming = req.headers.get('x-request-id');
  return incoming && VALID_REQUEST_ID.test(incoming) ? incoming : `req_${randomBase62(24)}`;
}

export function errorResponse(error: ApiError, requestId: string): Response {
  return Response.json(errorBody(error, requestId), { status: error.status, headers: error.options.headers });
}

/**
 * The outer wrapper of every API route: request id, the DECISIONS 1 error body, one JSON log line
 * per request. Unknown errors are logged with the request id and answered with a bare 500.
 */
export function withApi<P = Record<string, never>>(handler: ApiHandler<P>) {
  return async (req: Request, route: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    let response: Response;
    try {
      response = await handler(req, { params: await route.params, requestId });
    } catch (error) {
      if (error instanceof ApiError) {
        response = errorResponse(error, requestId);
      } else {
        log.error('unhandled error', { requestId, ...errorFields(error) });
        response = errorResponse(new ApiError('internal_error', 'Something went wrong on our side'), requestId);
      }
    }
    response.headers.set('X-Request-Id', requestId);
    log.info('request', {
      method: req.method,
      path: redactPath(new URL(req.url).pathname),
      status: response.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      requestId,
    });
    return response;
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
