import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { GET } from '@/app/api/openapi.json/route';
import { ERROR_STATUS, errorBody } from '@/lib/api/errors';
import { type IdPrefix, isId } from '@/lib/ids';
import type { CheckoutSessionView } from '@/lib/checkout/session';
import type { CreatedMerchant, merchantView } from '@/lib/merchants/merchants';
import { createMerchantBodySchema, updateMerchantBodySchema } from '@/lib/merchants/schemas';
import { billingRunBodySchema, sweepSummarySchema } from '@/lib/billing/schemas';
import { voidedTransactionSchema } from '@/lib/settlement/schemas';
import { cancelPlanBodySchema, createLinkBodySchema, linkSchema, planRecordSchema, planStatusSchema } from '@/lib/plans/schemas';
import { LATEST_API_VERSION } from '@/lib/api-versions';
import { call } from '@/test/http';
import { errorBodySchema } from './components';
import { buildOpenApiDocument, openApiDocument, type OpenApiDocument } from './document';
import { OPERATIONS } from '@/app/api/openapi.json/operations';
import { checkoutSessionSchema } from '@/lib/checkout/schemas';
import * as examples from './examples';
import { createdMerchantSchema, merchantSchema } from '@/lib/merchants/schemas';
import { lifecyclePayloadSchema, WEBHOOK_EVENT_TYPES, webhookPayloadSchema as webhookEventSchema } from '@/lib/webhooks/payload';

// The generated document is walked as plain JSON; its shape is what these tests check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const APP_URL = 'https://pay.example.co';
const doc = buildOpenApiDocument({ appUrl: APP_URL, checkoutTokenTtlSeconds: 86_400 }, OPERATIONS);

const documented = (d: OpenApiDocument) =>
  Object.entries(d.paths)
    .flatMap(([urlPath, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${urlPath}`))
    .sort();

/** Every value in a JSON tree, with its pointer. */
function* walkJson(value: unknown, pointer = ''): Generator<[string, unknown]> {
  yield [pointer, value];
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) yield* walkJson(child, `${pointer}/${key}`);
  }
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    // validate() dereferences in place: give it a copy.
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.warnings).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('documents every declared operation but those left out on purpose, and nothing else', () => {
    const declared = OPERATIONS.filter((op) => !op.undocumented).map((op) => `${op.method} ${op.path}`).sort();
    expect(declared).toContain('POST /merchants/subscription-link');
    expect(declared).toContain('GET /checkout/session/{token}');
    expect(documented(doc)).toEqual(declared);
    expect(OPERATIONS.filter((op) => op.undocumented).map((op) => op.path)).toEqual([
      '/checkout/session/{token}/payments',
      '/checkout/session/{token}/payments/{transactionId}',
    ]);
  });

  it('names this deployment as its server, and uses it in the curl samples', () => {
    expect(doc.servers).toEqual([{ url: APP_URL, description: 'This deployment' }]);
    const samples = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => op['x-codeSamples'] as { lang: string; source: string }[]),
    );
    expect(samples).toHaveLength(documented(doc).length);
    for (const sample of samples) expect(sample.source).toMatch(new RegExp(`^curl -X [A-Z]+ "${APP_URL}/`));
    const create = doc.paths['/merchants/subscription-link']!.post!['x-codeSamples'] as { source: string }[];
    expect(create[0]!.source).toContain('-H "Authorization: Bearer $API_KEY:$API_SECRET"');
    expect(create[0]!.source).toContain('"amount": 150000');
  });

  it('describes plan.amount as the handler validates it: an integer from 100 to 99999999999 cents', () => {
    const request = doc.components.schemas.CreateLinkRequest as Json;
    expect(request.properties.plan.properties.amount).toMatchObject({ type: 'integer', minimum: 100, maximum: 99_999_999_999 });
    expect(request.required).toEqual(['customer', 'plan']);
    expect(request.properties.plan.required).toEqual(['externalReference', 'description', 'amount']);
    // The zod schema refuses what the document says is refused.
    const body = examples.createLinkExamples.recurring.value;
    for (const amount of [99.5, '1000', 99, 100_000_000_000]) {
      expect(createLinkBodySchema.safeParse({ ...body, plan: { ...body.plan, amount } }).success).toBe(false);
    }
  });

  it('references each named schema from components, with no $defs left behind', () => {
    const link = doc.paths['/merchants/subscription-link']!.post as Json;
    expect(link.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateLinkRequest' });
    expect(link.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PaymentLink' });
    for (const [pointer, value] of walkJson(doc)) {
      expect(pointer).not.toMatch(/\/\$defs(\/|$)|\/\$schema$/);
      if (pointer.endsWith('/$ref')) expect(value).toMatch(/^#\/components\/(schemas|headers)\/[A-Za-z-]+$/);
    }
  });

  it('documents each error status with the codes of lib/api/errors.ts and the Error body', () => {
    const link = doc.paths['/merchants/subscription-link']!.post as Json;
    expect(Object.keys(link.responses).sort()).toEqual(['200', '400', '401', '409', '413', '415', '429', '500', '503']);
    // The database out of reach: a 503 to retry, with Retry-After.
    expect(Object.keys(link.responses['503'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'X-Request-Id']));
    expect(Object.keys(link.responses['409'].content['application/json'].examples).sort()).toEqual(['conflict', 'idempotency_key_reused']);
    expect(Object.keys(link.responses['429'].headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id']),
    );
    expect(Object.keys(link.responses['401'].headers)).toEqual(['X-Request-Id']);
    expect((doc.components.schemas.Error as Json).properties.error.properties.code.enum).toEqual(Object.keys(ERROR_STATUS));
    for (const [pointer, value] of walkJson(doc.paths)) {
      const status = /\/responses\/(\d{3})\/content\/application\/json\/examples\/[a-z_]+\/value$/.exec(pointer)?.[1];
      if (!status || Number(status) < 400) continue;
      const body = errorBodySchema.parse(value);
      expect(ERROR_STATUS[body.error.code], pointer).toBe(Number(status));
    }
    for (const [urlPath, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        expect(Object.keys(op.responses as object), `${method} ${urlPath}`).toContain(urlPath === '/api/health' ? '503' : '500');
      }
    }
  });

  it('documents the plan endpoints with 200, 401, 403, 404 and 429, and the operator API with its own token', () => {
    for (const urlPath of ['/merchants/plans/{subscriptionPlanId}/status', '/merchants/subscription-plans/{id}']) {
      expect(Object.keys(doc.paths[urlPath]!.get!.responses as object).sort()).toEqual(['200', '401', '403', '404', '429', '500', '503']);
      expect(doc.paths[urlPath]!.get!.security).toEqual([{ merchantKey: [] }]);
    }
    for (const urlPath of ['pause', 'resume', 'cancel'].map((verb) => `/merchants/subscription-plans/{id}/${verb}`).concat('/merchants/transactions/{subscriptionTransactionId}/void')) {
      const op = doc.paths[urlPath]!.post as Json;
      expect(Object.keys(op.responses).sort(), urlPath).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '429', '500', '503']);
      expect(op.requestBody.required, urlPath).toBe(false);
    }
    expect(doc.paths['/admin/merchants']!.post!.security).toEqual([{ operatorToken: [] }]);
    expect(doc.paths['/admin/merchants/{id}']!.patch!.security).toEqual([{ operatorToken: [] }]);
    expect(doc.paths['/api/health']!.get!.security).toEqual([]);
    expect(doc.paths['/checkout/session/{token}']!.get!.security).toEqual([]);
    expect(Object.keys(doc.paths['/checkout/session/{token}']!.get!.responses as object).sort()).toEqual(['200', '400', '404', '429', '500', '503']);
  });

  it('describes the webhooks of docs/webhooks.md#events, and the lifecycle events of docs/customers.md, with their signature header', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const cancelled = doc.webhooks['subscription.cancelled']!.post as Json;
    expect(cancelled.parameters.map((p: { name: string }) => p.name)).toContain('X-Webhook-Signature');
    expect(cancelled.description).toContain('only once you choose it');
    expect(lifecyclePayloadSchema.parse(cancelled.requestBody.content['application/json'].example)).toMatchObject({ data: { status: 'CANCELLED' } });
    const approved = doc.webhooks['subscription.charge.approved']!.post as Json;
    expect(approved.parameters.map((p: { name: string }) => p.name)).toContain('X-Webhook-Signature');
    expect(approved.requestBody.content['application/json'].example).toMatchObject({ event: 'subscription.charge.approved', data: { status: 'APPROVED' } });
  });
});

describe('the examples', () => {
  it('parse with the schemas the handlers use', () => {
    for (const { value } of Object.values(examples.createLinkExamples)) expect(createLinkBodySchema.parse(value)).toBeTruthy();
    expect(linkSchema.parse(examples.paymentLinkExample(APP_URL))).toBeTruthy();
    for (const { value } of Object.values(examples.planStatusExamples)) expect(planStatusSchema.parse(value)).toEqual(value);
    expect(planRecordSchema.parse(examples.planRecordExample)).toEqual(examples.planRecordExample);
    expect(createMerchantBodySchema.parse(examples.createMerchantExample)).toBeTruthy();
    expect(updateMerchantBodySchema.parse(examples.updateMerchantExample)).toBeTruthy();
    expect(createdMerchantSchema.parse(examples.createdMerchantExample)).toEqual(examples.createdMerchantExample);
    expect(merchantSchema.parse(examples.merchantExample)).toEqual(examples.merchantExample);
    expect(checkoutSessionSchema.parse(examples.checkoutSessionExample)).toEqual(examples.checkoutSessionExample);
    expect(webhookEventSchema.parse(examples.webhookExample('subscription.charge.declined', 'DECLINED'))).toBeTruthy();
    expect(planRecordSchema.parse(examples.pausedPlanExample)).toEqual(examples.pausedPlanExample);
    expect(cancelPlanBodySchema.parse(examples.cancelPlanExample)).toEqual(examples.cancelPlanExample);
    expect(voidedTransactionSchema.parse(examples.voidedTransactionExample)).toEqual(examples.voidedTransactionExample);
    expect(billingRunBodySchema.parse(examples.billingRunExample)).toEqual(examples.billingRunExample);
    expect(sweepSummarySchema.parse(examples.sweepSummaryExample)).toEqual(examples.sweepSummaryExample);
  });

  it('use well-formed prefixed ids and credentials', () => {
    const prefixes = new Set<string>();
    for (const [pointer, value] of walkJson(doc)) {
      if (typeof value !== 'string' || !/\/examples?\//.test(`${pointer}/`)) continue;
      const id = /^(sub|txn|evt|mch|cus)_\S*$/.exec(value);
      if (!id) continue;
      expect(isId(id[1] as IdPrefix, value), `${pointer}: ${value}`).toBe(true);
      prefixes.add(id[1]!);
    }
    expect([...prefixes].sort()).toEqual(['cus', 'evt', 'mch', 'sub', 'txn']);
    expect(examples.createdMerchantExample.apiKey).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);
    expect(examples.createdMerchantExample.apiSecret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(examples.createdMerchantExample.webhookSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  });

  it('match, as types, the replies the code builds', () => {
    expectTypeOf<z.infer<typeof errorBodySchema>>().toEqualTypeOf<ReturnType<typeof errorBody>>();
    expectTypeOf<z.infer<typeof createdMerchantSchema>>().toEqualTypeOf<CreatedMerchant>();
    expectTypeOf<z.infer<typeof merchantSchema>>().toEqualTypeOf<ReturnType<typeof merchantView>>();
    expectTypeOf<z.infer<typeof checkoutSessionSchema>>().toEqualTypeOf<CheckoutSessionView>();
  });
});

describe('GET /api/openapi.json', () => {
  it("answers 200 with this deployment's document, cacheable for 5 minutes", async () => {
    const res = await call(GET, { path: '/api/openapi.json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.json).toEqual(JSON.parse(JSON.stringify(openApiDocument(OPERATIONS))));
    expect(res.json.servers).toEqual([{ url: process.env.APP_URL, description: 'This deployment' }]);
  });
});

describe('the document of each API version (docs/api.md#versioning)', () => {
  const settings = { appUrl: 'https://pay.example.co', checkoutTokenTtlSeconds: 86_400 };
  const first = buildOpenApiDocument(settings, OPERATIONS, '2026-11-20');
  const properties = (schema: unknown) => Object.keys((schema as { properties: Record<string, unknown> }).properties);

  it('is a valid OpenAPI 3.1 document in every version', async () => {
    const result = await validate(structuredClone(first) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.warnings).toEqual([]);
  });

  it("says its version, and 2026-11-20's shapes are 2026-11-20's fields exactly", () => {
    expect(first.info.version).toBe('2026-11-20');
    expect(buildOpenApiDocument(settings, OPERATIONS).info.version).toBe(LATEST_API_VERSION);
    const schemas = first.components.schemas;
    expect(properties(schemas.PlanStatus)).toEqual(['subscriptionPlanId', 'externalReference', 'plan', 'lastTransaction']);
    expect(properties((schemas.PlanStatus as { properties: { plan: unknown } }).properties.plan)).toEqual([
      'status', 'amount', 'currency', 'description', 'nextChargeDate',
    ]);
    expect(properties(schemas.WebhookEvent)).toEqual(['event', 'data', 'timestamp']);
    expect(properties((schemas.WebhookEvent as { properties: { data: unknown } }).properties.data)).toEqual([
      'subscriptionTransactionId', 'subscriptionPlanId', 'externalReference', 'transactionId', 'amount', 'status', 'chargeDate',
    ]);
    expect(properties(schemas.CreateLinkRequest)).toEqual(['customer', 'plan']);
    expect(properties((schemas.CreateLinkRequest as { properties: { plan: unknown } }).properties.plan)).toEqual([
      'externalReference', 'description', 'amount', 'modality',
    ]);
    expect(properties(schemas.SubscriptionPlan)).toEqual([
      'id', 'merchantId', 'userId', 'externalReference', 'description', 'amount', 'currency', 'modality', 'interval', 'status', 'nextChargeDate', 'createdAt', 'updatedAt', 'customer',
    ]);
    expect(properties(schemas.SubscriptionLifecycleEvent)).toEqual(['event', 'data', 'timestamp']);
    expect(properties((schemas.SubscriptionLifecycleEvent as { properties: { data: unknown } }).properties.data)).toEqual([
      'subscriptionPlanId', 'externalReference', 'status', 'nextChargeDate', 'reason',
    ]);
  });

  /** Every plan status field of a document (a `status` property whose values include PENDING_ACTIVATION): where, and the states it allows. */
  function planStates(document: unknown) {
    const places: string[][] = [];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const status = (node as { properties?: { status?: { enum?: unknown[] } } }).properties?.status;
      if (status?.enum?.includes('PENDING_ACTIVATION')) places.push(status.enum.map(String).sort());
      Object.values(node).forEach(visit);
    };
    visit(document);
    return places;
  }

  it("has 2026-11-20's five plan states only, wherever a plan status is: a later state shows as the one it grew from", () => {
    const places = planStates(first);
    // The plan status reply, the plan record (its replies and its schema), the lifecycle event body.
    expect(places.length).toBeGreaterThanOrEqual(3);
    for (const states of places) expect(states).toEqual(['ACTIVE', 'CANCELLED', 'COMPLETED', 'PAUSED', 'PENDING_ACTIVATION']);
    expect(planStates(buildOpenApiDocument(settings, OPERATIONS)).length).toBe(places.length);
  });

  it('documents the version header on every merchant operation, and only there', () => {
    for (const [path, item] of Object.entries(first.paths)) {
      for (const op of Object.values(item)) {
        const names = ((op.parameters as { name: string }[] | undefined) ?? []).map((p) => p.name);
        expect(names.includes('ServicePay-Version'), path).toBe(path.startsWith('/merchants/'));
      }
    }
  });

  it('is served at /api/openapi.json?version=…; an unknown or malformed version is a 400 listing them', async () => {
    const res = await call(GET, { path: '/api/openapi.json?version=2026-11-20' });
    expect(res.status).toBe(200);
    expect(res.json.info.version).toBe('2026-11-20');
    for (const [asked, message] of [
      ['2019-01-01', 'version "2019-01-01" is not a version of this API; the versions are 2026-11-20, 2026-11-26, 2026-11-28'],
      ['v2', 'version "v2" must be a version date (YYYY-MM-DD); the versions are 2026-11-20, 2026-11-26, 2026-11-28'],
    ]) {
      const bad = await call(GET, { path: `/api/openapi.json?version=${asked}` });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatchObject({ code: 'invalid_request', message });
    }
  });
});
