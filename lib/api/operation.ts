import type { z } from 'zod';
import type { Db } from '@/db/client';
import type { ApiVersion } from '@/lib/api-versions';
import type { AuthenticatedMerchant } from '@/lib/api/authenticate';
import type { LimitBucket } from '@/lib/rate-limit/limits';
import type { ErrorCode } from './errors';
import type { KeyAudit } from './key-audit';

// One declaration per operation beside its route.ts: the route wrapper and the OpenAPI document both read it.

/** A merchant's API key, the operator token, anyone with a per-IP limit, or anyone. */
export type Auth = 'merchant' | 'operator' | 'checkout' | 'none';
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface DocumentSettings {
  appUrl: string;
  checkoutTokenTtlSeconds: number;
}

export type PerDeployment<T> = T | ((settings: DocumentSettings) => T);

interface PathParam {
  description: string;
  /** A path parameter never fails validation (a malformed id is a 404). */
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
  /** Keyed by the last version that has each. */
  before?: Partial<Record<ApiVersion, z.ZodType>>;
  example?: PerDeployment<unknown>;
  examples?: Record<string, Example>;
}

/** Documented beside X-Request-Id. */
type ExtraHeader = 'Idempotent-Replayed' | 'ServicePay-Version';

export interface Reply {
  description: string;
  body?: Media;
  /** `false` for a reply documented with none. */
  headers?: ExtraHeader[] | false;
}

export interface ErrorExample {
  message: string;
  details?: { path: string; message: string }[];
}

export interface Operation {
  method: Method;
  /** Next's `[param]` folders as `{param}`. */
  path: string;
  operationId: string;
  summary: string;
  description: PerDeployment<string>;
  tag: string;
  auth: Auth;
  limit?: LimitBucket;
  params?: Record<string, PathParam>;
  /** 400 on a bad one. */
  query?: z.ZodObject;
  /** Checked before the body is read (400 on a bad one). */
  headers?: Record<string, HeaderParam>;
  /** 400, 413, 415 on a bad one. */
  body?: Media & { required: boolean };
  replies: Partial<Record<number, Reply>>;
  errors: ErrorCode[];
  errorExamples?: Partial<Record<ErrorCode, ErrorExample>>;
  sample: { path: string; headers?: string[]; body?: unknown };
  /** With the reason. */
  undocumented?: string;
  /** Answers 404 with this message, as if it did not exist, before anything is read. */
  unavailable?: () => string | false;
}

export function operation<const O extends Operation>(op: O): O {
  return op;
}

export type ParamsOf<O extends Operation> = O['params'] extends Record<string, PathParam> ? { [K in keyof O['params']]: string } : Record<string, never>;

export type OperationContext<O extends Operation> = {
  params: ParamsOf<O>;
  requestId: string;
} & (O['auth'] extends 'merchant' | 'checkout' ? { db: Db } : unknown) &
  (O['auth'] extends 'merchant' ? { merchant: AuthenticatedMerchant; version: ApiVersion } : unknown) &
  (O['auth'] extends 'merchant' ? (O['method'] extends 'GET' ? unknown : { audit: KeyAudit }) : unknown) &
  (O['body'] extends Media ? { body: z.output<O['body']['schema']>; rawBody: Record<string, unknown> } : unknown) &
  (O['query'] extends z.ZodObject ? { query: z.output<O['query']> } : unknown) &
  (O['headers'] extends Record<string, HeaderParam> ? { headers: { [K in keyof O['headers']]?: string } } : unknown);
