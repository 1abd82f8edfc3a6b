import { randomUUID } from 'node:crypto';
import { apiError, ArgumentError, ConnectionError, ServicePayApiError } from './errors.js';
import {
  API_VERSION,
  type CancelPlanRequest,
  type PausePlanRequest,
  type Coupon,
  type CouponPage,
  type CreateCouponRequest,
  type CreateLinkRequest,
  type Invoice,
  type InvoicePage,
  type ManageLink,
  type Operations,
  OPERATIONS,
  type PaymentLink,
  type PlanStatus,
  type PriceChangeRequest,
  type UsageBatch,
  type UsageBatchRequest,
  type UsageReport,
  type UsageReportRequest,
  REQUEST_BODIES,
  type SubscriptionPlan,
  type TestClock,
  type VoidedTransaction,
  type WebhookEventPage,
  type WebhookResend,
} from './generated.js';
import { checkArgument } from './validate.js';
import { parse, verify } from './webhooks.js';

export * from './errors.js';
export type * from './generated.js';
export { API_VERSION } from './generated.js';
export type { RawBody, ServicePayEvent, VerifyOptions } from './webhooks.js';

/**
 * Webhook verification on its own, for a receiver that holds only the webhook secret (no API
 * key): `webhooks.verify(rawBody, signature, secret)` and `webhooks.parse(...)`. The client's
 * `webhooks` has the same two beside `list` and `resend`.
 */
export const webhooks = { verify, parse } as const;

// @servicepay/node: a typed client of the ServicePay merchant API. No dependency beyond Node's own
// fetch and crypto. Every merchant operation, typed from the API's own declarations
// (generated.ts); link creation with an Idempotency-Key (one is made when you give none, so its
// retries are safe); 429 and 503 retried as Retry-After says; the polling procedure of docs/api.md#plan-status as one call;
// webhook verification over the raw body.

export interface ServicePayOptions {
  apiKey: string;
  apiSecret: string;
  /** The deployment's base address, such as https://pagos.servicepay.co. */
  baseUrl: string;
  /** The API version requests are written for (ServicePay-Version). Defaults to the one these types describe. */
  apiVersion?: string;
  /** How many times a 429 or 503 (or a connection that failed) is tried again. Default 2. */
  maxRetries?: number;
  /** The longest wait between tries, whatever Retry-After says (ms). Default 60 s. */
  maxRetryWaitMs?: number;
  /** Another fetch (a proxy agent, tests). Default: Node's global fetch. */
  fetch?: typeof fetch;
}

/**
 * A list call: await it for one page (`{ data, nextCursor }`), or iterate it with `for await` for
 * every item of every page, each page fetched as the loop reaches it.
 */
export type PagedList<Page extends { data: unknown[]; nextCursor: string | null }> = Promise<Page> & AsyncIterable<Page['data'][number]>;

export interface RequestOptions {
  /** For link creation: replays of the same key with the same body get the first reply. Generated when not given. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** The result of waitForOutcome: the polling procedure (docs/api.md#plan-status), finished. */
export type Outcome =
  | { outcome: 'approved' | 'declined'; status: PlanStatus }
  /** The customer saved a method and a free trial began (API version 2026-11-26 on): the first charge is at `status.plan.trial.endsAt`. */
  | { outcome: 'trialing'; status: PlanStatus }
  /** Something else stopped the procedure (the charge ended as ERROR or VOIDED, the plan is not waiting). */
  | { outcome: 'stopped'; status: PlanStatus }
  /** Still pending after the last attempt. */
  | { outcome: 'timeout'; status: PlanStatus };

export interface WaitOptions {
  /** At most this many queries (docs/api.md#plan-status: 12). */
  attempts?: number;
  /** Between queries (docs/api.md#plan-status: 5 s). */
  intervalMs?: number;
  signal?: AbortSignal;
}

type OperationId = keyof Operations;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

function requireString(operation: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new ArgumentError(`${operation}: ${name} must be a non-empty string, not ${value === null ? 'null' : typeof value} (nothing was sent)`);
  return value;
}

export class ServicePay {
  readonly apiVersion: string;
  private readonly baseUrl: string;
  private readonly authorization: string;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  private readonly fetch: typeof fetch;

  constructor(options: ServicePayOptions) {
    const { apiKey, apiSecret, baseUrl } = options ?? ({} as ServicePayOptions);
    requireString('new ServicePay', 'apiKey', apiKey);
    requireString('new ServicePay', 'apiSecret', apiSecret);
    requireString('new ServicePay', 'baseUrl', baseUrl);
    if (!URL.canParse(baseUrl)) throw new ArgumentError(`new ServicePay: baseUrl must be an absolute URL, not ${JSON.stringify(baseUrl)}`);
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.authorization = `Bearer ${apiKey}:${apiSecret}`;
    this.apiVersion = options.apiVersion ?? API_VERSION;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** POST /merchants/subscription-link: a payment link and its plan. */
  readonly links = {
    create: (body: CreateLinkRequest, options: RequestOptions = {}): Promise<PaymentLink> =>
      this.call('createSubscriptionLink', {}, { body, idempotencyKey: options.idempotencyKey ?? randomUUID(), signal: options.signal }),
  };

  /** A plan: its status, its record, and the changes a merchant may make. */
  readonly plans = {
    status: (subscriptionPlanId: string, options: RequestOptions = {}): Promise<PlanStatus> =>
      this.call('getPlanStatus', { subscriptionPlanId }, options),
    retrieve: (id: string, options: RequestOptions = {}): Promise<SubscriptionPlan> => this.call('getSubscriptionPlan', { id }, options),
    /** A new price (and name), from the next charge or, for a raise, `now` with the prorated difference charged. A repeat asks for the same target price, never a second raise. */
    changePrice: (id: string, body: PriceChangeRequest, options: RequestOptions = {}): Promise<SubscriptionPlan> =>
      this.call('changeSubscriptionPlanPrice', { id }, { ...options, body }),
    /** Pauses; with `{ resumesAt }` (API version 2026-11-28) the plan resumes on its own then. */
    pause: (id: string, body: PausePlanRequest = {}, options: RequestOptions = {}): Promise<SubscriptionPlan> =>
      this.call('pauseSubscriptionPlan', { id }, { ...options, body }),
    resume: (id: string, options: RequestOptions = {}): Promise<SubscriptionPlan> => this.call('resumeSubscriptionPlan', { id }, { ...options, body: {} }),
    /** Cancels now, or with `{ at: 'period_end' }` at the next charge date (API version 2026-11-28); undo that with `undoCancel`. */
    cancel: (id: string, body: CancelPlanRequest = {}, options: RequestOptions = {}): Promise<SubscriptionPlan> =>
      this.call('cancelSubscriptionPlan', { id }, { ...options, body }),
    /** Reports metered usage (API version 2026-11-28); the same `idempotencyKey` again counts once. */
    reportUsage: (id: string, body: UsageReportRequest, options: RequestOptions = {}): Promise<UsageReport> => this.call('reportUsage', { id }, { ...options, body }),
    /** Reports up to 100 usage reports of one or many plans at once, recorded all together or not at all (API version 2026-11-28). */
    reportUsageBatch: (body: UsageBatchRequest, options: RequestOptions = {}): Promise<UsageBatch> => this.call('reportUsageBatch', {}, { ...options, body }),
    /** Undoes a cancellation at the end of the period before it takes effect. */
    undoCancel: (id: string, options: RequestOptions = {}): Promise<SubscriptionPlan> => this.call('changeSubscriptionPlanPrice', { id }, { ...options, body: { at: null } }),
    manageLink: (id: string, options: RequestOptions = {}): Promise<ManageLink> => this.call('createManageLink', { id }, { ...options, body: {} }),
  };

  /** Coupons (docs/billing.md#coupons): create, list, delete. Apply one with `plan.coupon` at link creation. */
  readonly coupons = {
    create: (body: CreateCouponRequest, options: RequestOptions = {}): Promise<Coupon> => this.call('createCoupon', {}, { ...options, body }),
    /** One page, or every coupon with `for await (const coupon of servicepay.coupons.list())`. */
    list: (query: Operations['listCoupons']['query'] = {}, options: RequestOptions = {}): PagedList<CouponPage> =>
      this.paged((cursor) => this.call('listCoupons', {}, { ...options, query: { ...query, ...cursor } })),
    delete: (id: string, options: RequestOptions = {}): Promise<Coupon> => this.call('deleteCoupon', { id }, options),
  };

  /** Electronic invoices and credit notes sent to DIAN (API version 2026-11-28, docs/einvoicing.md). */
  readonly invoices = {
    /** One page, or every document with `for await (const invoice of servicepay.invoices.list())`. */
    list: (query: Operations['listInvoices']['query'] = {}, options: RequestOptions = {}): PagedList<InvoicePage> =>
      this.paged((cursor) => this.call('listInvoices', {}, { ...options, query: { ...query, ...cursor } })),
    retrieve: (id: string, options: RequestOptions = {}): Promise<Invoice> => this.call('getInvoice', { id }, options),
  };

  /** A charge: void an approved one. */
  readonly transactions = {
    void: (subscriptionTransactionId: string, options: RequestOptions = {}): Promise<VoidedTransaction> =>
      this.call('voidTransaction', { subscriptionTransactionId }, { ...options, body: {} }),
  };

  /** The webhook events sent to you, with their attempts; a resend; and verification of what you receive. */
  readonly webhooks = {
    /** One page, or every event with `for await (const event of servicepay.webhooks.list())`. */
    list: (query: Operations['listWebhookEvents']['query'] = {}, options: RequestOptions = {}): PagedList<WebhookEventPage> =>
      this.paged((cursor) => this.call('listWebhookEvents', {}, { ...options, query: { ...query, ...cursor } })),
    resend: (id: string, options: RequestOptions = {}): Promise<WebhookResend> => this.call('resendWebhookEvent', { id }, options),
    ...webhooks,
  };

  /**
   * Your test clock (development and sandbox deployments; a production deployment answers
   * NotFoundError): `advance` moves it forward and runs everything of your plans due on the way.
   */
  readonly testClock = {
    retrieve: (options: RequestOptions = {}): Promise<TestClock> => this.call('getTestClock', {}, options),
    /** To `advanceTo` (a Date or ISO 8601): forward only, at most 2 years from now. Answers once the advance is done. */
    advance: (advanceTo: Date | string, options: RequestOptions = {}): Promise<TestClock> =>
      this.call('advanceTestClock', {}, { ...options, body: { advanceTo: advanceTo instanceof Date ? advanceTo.toISOString() : advanceTo } }),
    /** Back to real time for plans created from now on. */
    delete: (options: RequestOptions = {}): Promise<TestClock> => this.call('deleteTestClock', {}, options),
  };

  /**
   * The polling procedure of docs/api.md#plan-status as one call: the plan status at most 12 times, 5 s apart; `approved`
   * or `declined` as soon as the last transaction says so; `trialing` once a free trial began (a
   * client pinned to 2026-11-20 sees that plan as still waiting); on while the plan waits for its
   * first payment or the charge is PENDING; `stopped` on anything else; `timeout` after the last query.
   * Webhooks tell you first: poll when in doubt.
   */
  async waitForOutcome(subscriptionPlanId: string, { attempts = 12, intervalMs = 5_000, signal }: WaitOptions = {}): Promise<Outcome> {
    requireString('waitForOutcome', 'subscriptionPlanId', subscriptionPlanId);
    let status: PlanStatus | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      status = await this.plans.status(subscriptionPlanId, { signal });
      const last = status.lastTransaction?.status;
      if (last === 'APPROVED') return { outcome: 'approved', status };
      if (last === 'DECLINED') return { outcome: 'declined', status };
      if (status.plan.status === 'TRIALING' && !status.lastTransaction) return { outcome: 'trialing', status };
      const waiting = (status.plan.status === 'PENDING_ACTIVATION' && !status.lastTransaction) || last === 'PENDING';
      if (!waiting) return { outcome: 'stopped', status };
      if (attempt < attempts) await sleep(intervalMs, signal);
    }
    return { outcome: 'timeout', status: status! };
  }

  private async call<Id extends OperationId>(
    id: Id,
    params: Record<string, string>,
    { body, query, idempotencyKey, signal }: RequestOptions & { body?: unknown; query?: Record<string, string | number | undefined> } = {},
  ): Promise<Operations[Id]['reply']> {
    const operation = OPERATIONS[id];
    let path: string = operation.path;
    for (const [name, value] of Object.entries(params)) path = path.replace(`{${name}}`, encodeURIComponent(requireString(id, name, value)));
    if (body !== undefined && REQUEST_BODIES[id]) checkArgument(id, body, REQUEST_BODIES[id]);
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      if (!(operation.query as readonly string[]).includes(name)) throw new ArgumentError(`${id}: unknown query parameter ${name} (nothing was sent)`);
      url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      Authorization: this.authorization,
      'ServicePay-Version': this.apiVersion,
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    };
    const payload = body !== undefined ? JSON.stringify(body) : undefined;
    // A POST is tried again only when it cannot act twice: link creation carries its Idempotency-Key,
    // and the other POSTs change a state that a second try finds already changed (a 409, not a double).
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetch(url, { method: operation.method, headers, body: payload, signal });
      } catch (error) {
        if (signal?.aborted || attempt >= this.maxRetries) {
          throw new ConnectionError(`${id}: could not reach ${this.baseUrl} (${(error as Error).message})`, { cause: error });
        }
        await sleep(this.backoff(attempt), signal);
        continue;
      }
      if (response.ok) return (await response.json()) as Operations[Id]['reply'];
      const errorBody = await response.json().catch(() => undefined);
      const failure = apiError(response.status, (errorBody as { error?: ServicePayApiError } | undefined)?.error as never, response.headers);
      if ((response.status === 429 || response.status === 503) && attempt < this.maxRetries) {
        await sleep(Math.min(failure.retryAfter !== undefined ? failure.retryAfter * 1000 : this.backoff(attempt), this.maxRetryWaitMs), signal);
        continue;
      }
      throw failure;
    }
  }

  /** A list call's first page, awaitable, that also iterates every item of every page. */
  private paged<Page extends { data: unknown[]; nextCursor: string | null }>(fetchPage: (cursor: { cursor?: string }) => Promise<Page>): PagedList<Page> {
    const first = fetchPage({});
    // Awaited or not, a failed first page must not be an unhandled rejection before the caller looks.
    first.catch(() => undefined);
    async function* items(): AsyncGenerator<Page['data'][number]> {
      let page = await first;
      for (;;) {
        yield* page.data as Page['data'][number][];
        if (!page.nextCursor) return;
        page = await fetchPage({ cursor: page.nextCursor });
      }
    }
    return Object.assign(first, { [Symbol.asyncIterator]: items });
  }

  /** 0.5 s, 1 s, 2 s… with some jitter, when the API said nothing. */
  private backoff(attempt: number): number {
    return Math.min(500 * 2 ** attempt, this.maxRetryWaitMs) * (0.75 + Math.random() / 2);
  }
}

export default ServicePay;
