import { ApiError } from '@/lib/api/errors';

export type Handler<P> = (req: Request, ctx: { params: Promise<P> }) => Response | Promise<Response>;

export interface CallOptions<P> {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is. */
  body?: unknown;
  params?: P;
}

/** Calls a route handler the way Next.js does, and returns the response with its parsed JSON body. */
export async function call<P = Record<string, never>>(handler: Handler<P>, options: CallOptions<P> = {}) {
  const headers = new Headers(options.headers);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const req = new Request(`http://localhost:3000${options.path ?? '/'}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const res = await handler(req, { params: Promise.resolve((options.params ?? {}) as P) });
  const text = await res.text();
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export const ADMIN_TOKEN = process.env.ADMIN_API_TOKEN!;
export const adminHeaders = () => ({ authorization: `Bearer ${process.env.ADMIN_API_TOKEN}` });

/** The ApiError a call was refused with (the test fails if it was not refused with one). */
export async function apiRefusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  // No vitest here: benches load this file through the resilience harness, outside vitest.
  if (!(error instanceof ApiError)) throw new Error(`expected a refusal with an ApiError, got ${error === null ? 'no refusal' : String(error)}`);
  return error;
}
