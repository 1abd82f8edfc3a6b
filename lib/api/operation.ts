import type { z } from 'zod';
import type { Db } from '@/db/client';
import type { ApiVersion } from '@/lib/api-versions';
import type { AuthenticatedMerchant } from '@/lib/api/authenticate';
import type { LimitBucket } from '@/lib/rate-limit/limits';
import type { ErrorCode } from './errors';

// One declaration per operation, in an operation.ts beside its route.ts (docs/api.md#adding-an-operation):
// the route's wrapper and the OpenAPI document both read it, so they cannot disagree.

/** Who may call: a merchant's API key, the operator token, anyone (per-IP limit), or anyone. */
export type Auth = 'merchant' | 'operator' | 'checkout' | 'none';
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What the deployment changes in the document: its URL and the checkout token's lifetime. */
export interface DocumentSettings {
  appUrl: string;
  checkoutTokenTtlSeconds: number;
}

/** A value of the document, or one that depends on the deployment's settings. */
export type PerDeployment<T> = T | ((settings: DocumentSettings) => T);

interface PathParam {
  description: string;
  /** The id's form; a path parameter never fails validation (a malformed id is a 404). */
  pattern?: string;
  example: string;
}

export interface HeaderParam {
  schema: z.ZodType<string>;
  description: string;
  example: string;
}

export interface Example {
  summary?: string;
  description?: string;
  value: unknown;
}

export interface Media {
  schema: z.ZodType;
  /** Older shapes, keyed by the last version that has each (docs/api.md#versioning). */
  before?: Partial<Record<ApiVersion, z.ZodType>>;
  example?: PerDeployment<unknown>;
  examples?: Record<string, Example>;
}

/** Response headers documented beside X-Request-Id (lib/openapi/components.ts HEADERS). */
type ExtraHeader = 'Idempotent-Replayed' | 'ServicePay-Version';

export interface Reply {
  description: string;
  body?: Media;
  /** Extra headers; `false` for a reply documented with none (the health check). */
  headers?: ExtraHeader[] | false;
}

export interface ErrorExample {
  message: string;
  details?: { path: string; message: string }[];
}

export interface Operation {
  method: Method;
  /** The OpenAPI path: Next's `[param]` folders as `{param}`. */
  path: string;
  operationId: string;
  summary: string;
  description: PerDeployment<string>;
  tag: string;
  auth: Auth;
  /** The rate-limit bucket, per api_key (merchant) or client IP (checkout). */
  limit?: LimitBucket;
  params?: Record<string, PathParam>;
  /** The query string, parsed (400 on a bad one) and handed to the handler as `query`. */
  query?: z.ZodObject;
  /** Request headers checked before the body is read (400 on a bad one). */
  headers?: Record<string, HeaderParam>;
  /** The JSON body, parsed (400, 413, 415) and handed to the handler as `body`. */
  body?: Media & { required: boolean };
  replies: Partial<Record<number, Reply>>;
  /** Error codes the operation may answer, each documented under its status. */
  errors: ErrorCode[];
  errorExamples?: Partial<Record<ErrorCode, ErrorExample>>;
  /** The curl sample: the path with its parameters filled in, headers, body. */
  sample: { path: string; headers?: string[]; body?: unknown };
  /** Left out of the merchants' reference, with the reason. */
  undocumented?: string;
  /** Why the operation is off here, if it is: it then answers 404 with that message, as if it did not exist, before anything is read. */
  unavailable?: () => string | false;
}

/** An operation with its literal types kept, so its route's context is typed from it. */
export function operation<const O extends Operation>(op: O): O {
  return op;
}

export type ParamsOf<O extends Operation> = O['params'] extends Record<string, PathParam> ? { [K in keyof O['params']]: string } : Record<string, never>;

/** What a handler receives, from its operation: params, the parsed body and query, the merchant. */
export type OperationContext<O extends Operation> = {
  params: ParamsOf<O>;
  requestId: string;
} & (O['auth'] extends 'merchant' | 'checkout' ? { db: Db } : unknown) &
  (O['auth'] extends 'merchant' ? { merchant: AuthenticatedMerchant; version: ApiVersion } : unknown) &
  (O['body'] extends Media ? { body: z.output<O['body']['schema']>; rawBody: Record<string, unknown> } : unknown) &
  (O['query'] extends z.ZodObject ? { query: z.output<O['query']> } : unknown) &
  (O['headers'] extends Record<string, HeaderParam> ? { headers: { [K in keyof O['headers']]?: string } } : unknown);
