import type { z } from 'zod';
import type { Db } from '@/db/client';
import { type ApiVersion, forVersion } from '@/lib/api-versions';
import { ApiError } from './errors';
import { parseWith, readJsonObject } from './body';
import { type ApiContext, withApi } from './handler';
import { KeyAudit } from './key-audit';
import type { Media, Operation, OperationContext, ParamsOf } from './operation';
import { withAdmin } from './with-admin';
import { clientIp, withCheckout } from './with-checkout';
import { withMerchant } from './with-merchant';

/** Next's handler, carrying its operation (the registry test reads it). */
export type Route<O extends Operation> = ((req: Request, route: { params: Promise<ParamsOf<O>> }) => Response | Promise<Response>) & { operation: O };

/** In order: 400 naming a header sent invalid. */
function readHeaders(req: Request, op: Operation): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const [name, { schema }] of Object.entries(op.headers ?? {})) {
    const value = req.headers.get(name);
    if (value === null) continue;
    const result = schema.safeParse(value);
    if (!result.success) throw new ApiError('invalid_request', `${name} ${result.error.issues[0]?.message ?? 'is invalid'}`);
    values[name] = result.data;
  }
  return values;
}

/** The newest without a version (operations of no merchant). */
function shapeFor(media: Media, version: ApiVersion | undefined): z.ZodType {
  return version ? forVersion(media.schema, media.before, version) : media.schema;
}

/** Its shape first (later fields ignored), then the newest for defaults. */
function parseBody(media: Media, raw: Record<string, unknown> | undefined, version: ApiVersion | undefined): unknown {
  const shape = shapeFor(media, version);
  return parseWith(media.schema, shape === media.schema ? raw : parseWith(shape, raw));
}

/** Later fields dropped, new states mapped (docs/api.md#versioning). */
async function inVersion(op: Operation, response: Response, version: ApiVersion | undefined): Promise<Response> {
  const media = op.replies[response.status]?.body;
  if (!media || shapeFor(media, version) === media.schema) return response;
  const text = JSON.stringify(shapeFor(media, version).parse(await response.json()));
  return new Response(text, { status: response.status, headers: response.headers });
}

type MerchantAudit = { db: Db; merchant: { merchantId: string; apiKey: string } };

/** Audited with the change when the handler takes it, else once the change has committed. */
function keyAuditOf(req: Request, op: Operation, { merchant }: MerchantAudit, rawBody: Record<string, unknown> | undefined): KeyAudit {
  return new KeyAudit(() => ({
    merchantId: merchant.merchantId,
    actor: { type: 'api_key', id: merchant.apiKey, label: merchant.apiKey, ip: clientIp(req) },
    action: `api.${op.operationId}`,
    target: `${op.method} ${new URL(req.url).pathname}`,
    // Customers' personal data stays out: the log is kept 2 years, their e-mails 90 days.
    changes: rawBody ? { request: 'customer' in rawBody ? { ...rawBody, customer: '[omitted]' } : rawBody } : {},
  }));
}

/** Auth and rate limit, headers, query and body, then the handler. */
export function route<const O extends Operation>(op: O, handler: (req: Request, ctx: OperationContext<O>) => Promise<Response>): Route<O> {
  const run = async (req: Request, ctx: ApiContext<Record<string, string>> & { version?: ApiVersion }): Promise<Response> => {
    const headers = readHeaders(req, op);
    const query = op.query ? parseWith(op.query, Object.fromEntries(new URL(req.url).searchParams)) : undefined;
    const rawBody = op.body ? await readJsonObject(req, { optional: !op.body.required }) : undefined;
    const body = op.body ? parseBody(op.body, rawBody, ctx.version) : undefined;
    const audit = op.auth === 'merchant' && op.method !== 'GET' ? keyAuditOf(req, op, ctx as unknown as MerchantAudit, rawBody) : undefined;
    const response = await handler(req, { ...ctx, headers, query, body, rawBody, audit } as unknown as OperationContext<O>);
    if (audit && response.ok) await audit.recordUnlessTaken((ctx as unknown as MerchantAudit).db);
    return inVersion(op, response, ctx.version);
  };
  const limit = () => {
    if (!op.limit) throw new Error(`${op.method} ${op.path}: a ${op.auth} operation needs a rate-limit bucket`);
    return op.limit;
  };
  const available: typeof run = async (req, ctx) => {
    const unavailable = op.unavailable?.();
    if (unavailable) throw new ApiError('not_found', unavailable);
    return run(req, ctx);
  };
  const wrapped =
    op.auth === 'merchant'
      ? withMerchant(available, { limit: limit() })
      : op.auth === 'checkout'
        ? withCheckout(available, { limit: limit() })
        : op.auth === 'operator'
          ? withAdmin(available)
          : withApi(available);
  return Object.assign(wrapped, { operation: op }) as unknown as Route<O>;
}
