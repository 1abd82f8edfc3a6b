import { type CancelPlanRequest, type CreateLinkRequest, type ManageLink, type Operations, type PaymentLink, type PlanStatus, type SubscriptionPlan, type VoidedTransaction, type WebhookEventPage, type WebhookResend } from './generated.js';
import { parse, verify } from './webhooks.js';
export * from './errors.js';
export type * from './generated.js';
export { API_VERSION } from './generated.js';
export type { RawBody, ServicePayEvent, VerifyOptions } from './webhooks.js';
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
export interface RequestOptions {
    /** For link creation: replays of the same key with the same body get the first reply. Generated when not given. */
    idempotencyKey?: string;
    signal?: AbortSignal;
}
/** The result of waitForOutcome: SPEC's polling procedure, finished. */
export type Outcome = {
    outcome: 'approved' | 'declined';
    status: PlanStatus;
}
/** Something else stopped the procedure (the charge ended as ERROR or VOIDED, the plan is not waiting). */
 | {
    outcome: 'stopped';
    status: PlanStatus;
}
/** Still pending after the last attempt. */
 | {
    outcome: 'timeout';
    status: PlanStatus;
};
export interface WaitOptions {
    /** At most this many queries (SPEC: 12). */
    attempts?: number;
    /** Between queries (SPEC: 5 s). */
    intervalMs?: number;
    signal?: AbortSignal;
}
export declare class ServicePay {
    readonly apiVersion: string;
    private readonly baseUrl;
    private readonly authorization;
    private readonly maxRetries;
    private readonly maxRetryWaitMs;
    private readonly fetch;
    constructor(options: ServicePayOptions);
    /** POST /merchants/subscription-link: a payment link and its plan. */
    readonly links: {
        create: (body: CreateLinkRequest, options?: RequestOptions) => Promise<PaymentLink>;
    };
    /** A plan: its status, its record, and the changes a merchant may make. */
    readonly plans: {
        status: (subscriptionPlanId: string, options?: RequestOptions) => Promise<PlanStatus>;
        retrieve: (id: string, options?: RequestOptions) => Promise<SubscriptionPlan>;
        pause: (id: string, options?: RequestOptions) => Promise<SubscriptionPlan>;
        resume: (id: string, options?: RequestOptions) => Promise<SubscriptionPlan>;
        cancel: (id: string, body?: CancelPlanRequest, options?: RequestOptions) => Promise<SubscriptionPlan>;
        manageLink: (id: string, options?: RequestOptions) => Promise<ManageLink>;
    };
    /** A charge: void an approved one. */
    readonly transactions: {
        void: (subscriptionTransactionId: string, options?: RequestOptions) => Promise<VoidedTransaction>;
    };
    /** The webhook events sent to you, with their attempts; a resend; and verification of what you receive. */
    readonly webhooks: {
        list: (query?: Operations["listWebhookEvents"]["query"], options?: RequestOptions) => Promise<WebhookEventPage>;
        resend: (id: string, options?: RequestOptions) => Promise<WebhookResend>;
        verify: typeof verify;
        parse: typeof parse;
    };
    /**
     * SPEC's polling procedure as one call: the plan status at most 12 times, 5 s apart; `approved`
     * or `declined` as soon as the last transaction says so; on while the plan waits for its first
     * payment or the charge is PENDING; `stopped` on anything else; `timeout` after the last query.
     * Webhooks tell you first: poll when in doubt.
     */
    waitForOutcome(subscriptionPlanId: string, { attempts, intervalMs, signal }?: WaitOptions): Promise<Outcome>;
    private call;
    /** 0.5 s, 1 s, 2 s… with some jitter, when the API said nothing. */
    private backoff;
}
export default ServicePay;
