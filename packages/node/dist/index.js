import { randomUUID } from 'node:crypto';
import { apiError, ArgumentError, ConnectionError } from './errors.js';
import { API_VERSION, OPERATIONS, REQUEST_BODIES, } from './generated.js';
import { checkArgument } from './validate.js';
import { parse, verify } from './webhooks.js';
export * from './errors.js';
export { API_VERSION } from './generated.js';
const sleep = (ms, signal) => new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
});
function requireString(operation, name, value) {
    if (typeof value !== 'string' || value.length === 0)
        throw new ArgumentError(`${operation}: ${name} must be a non-empty string, not ${value === null ? 'null' : typeof value} (nothing was sent)`);
    return value;
}
export class ServicePay {
    apiVersion;
    baseUrl;
    authorization;
    maxRetries;
    maxRetryWaitMs;
    fetch;
    constructor(options) {
        const { apiKey, apiSecret, baseUrl } = options ?? {};
        requireString('new ServicePay', 'apiKey', apiKey);
        requireString('new ServicePay', 'apiSecret', apiSecret);
        requireString('new ServicePay', 'baseUrl', baseUrl);
        if (!URL.canParse(baseUrl))
            throw new ArgumentError(`new ServicePay: baseUrl must be an absolute URL, not ${JSON.stringify(baseUrl)}`);
        this.baseUrl = baseUrl.replace(/\/+$/, '');
        this.authorization = `Bearer ${apiKey}:${apiSecret}`;
        this.apiVersion = options.apiVersion ?? API_VERSION;
        this.maxRetries = options.maxRetries ?? 2;
        this.maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
        this.fetch = options.fetch ?? globalThis.fetch;
    }
    /** POST /merchants/subscription-link: a payment link and its plan. */
    links = {
        create: (body, options = {}) => this.call('createSubscriptionLink', {}, { body, idempotencyKey: options.idempotencyKey ?? randomUUID(), signal: options.signal }),
    };
    /** A plan: its status, its record, and the changes a merchant may make. */
    plans = {
        status: (subscriptionPlanId, options = {}) => this.call('getPlanStatus', { subscriptionPlanId }, options),
        retrieve: (id, options = {}) => this.call('getSubscriptionPlan', { id }, options),
        pause: (id, options = {}) => this.call('pauseSubscriptionPlan', { id }, { ...options, body: {} }),
        resume: (id, options = {}) => this.call('resumeSubscriptionPlan', { id }, { ...options, body: {} }),
        cancel: (id, body = {}, options = {}) => this.call('cancelSubscriptionPlan', { id }, { ...options, body }),
        manageLink: (id, options = {}) => this.call('createManageLink', { id }, { ...options, body: {} }),
    };
    /** A charge: void an approved one. */
    transactions = {
        void: (subscriptionTransactionId, options = {}) => this.call('voidTransaction', { subscriptionTransactionId }, { ...options, body: {} }),
    };
    /** The webhook events sent to you, with their attempts; a resend; and verification of what you receive. */
    webhooks = {
        list: (query = {}, options = {}) => this.call('listWebhookEvents', {}, { ...options, query }),
        resend: (id, options = {}) => this.call('resendWebhookEvent', { id }, options),
        verify,
        parse,
    };
    /**
     * SPEC's polling procedure as one call: the plan status at most 12 times, 5 s apart; `approved`
     * or `declined` as soon as the last transaction says so; on while the plan waits for its first
     * payment or the charge is PENDING; `stopped` on anything else; `timeout` after the last query.
     * Webhooks tell you first: poll when in doubt.
     */
    async waitForOutcome(subscriptionPlanId, { attempts = 12, intervalMs = 5_000, signal } = {}) {
        requireString('waitForOutcome', 'subscriptionPlanId', subscriptionPlanId);
        let status;
        for (let attempt = 1; attempt <= attempts; attempt++) {
            status = await this.plans.status(subscriptionPlanId, { signal });
            const last = status.lastTransaction?.status;
            if (last === 'APPROVED')
                return { outcome: 'approved', status };
            if (last === 'DECLINED')
                return { outcome: 'declined', status };
            const waiting = (status.plan.status === 'PENDING_ACTIVATION' && !status.lastTransaction) || last === 'PENDING';
            if (!waiting)
                return { outcome: 'stopped', status };
            if (attempt < attempts)
                await sleep(intervalMs, signal);
        }
        return { outcome: 'timeout', status: status };
    }
    async call(id, params, { body, query, idempotencyKey, signal } = {}) {
        const operation = OPERATIONS[id];
        let path = operation.path;
        for (const [name, value] of Object.entries(params))
            path = path.replace(`{${name}}`, encodeURIComponent(requireString(id, name, value)));
        if (body !== undefined && REQUEST_BODIES[id])
            checkArgument(id, body, REQUEST_BODIES[id]);
        const url = new URL(`${this.baseUrl}${path}`);
        for (const [name, value] of Object.entries(query ?? {})) {
            if (value === undefined)
                continue;
            if (!operation.query.includes(name))
                throw new ArgumentError(`${id}: unknown query parameter ${name} (nothing was sent)`);
            url.searchParams.set(name, String(value));
        }
        const headers = {
            Authorization: this.authorization,
            'ServicePay-Version': this.apiVersion,
            Accept: 'application/json',
            ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
            ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        };
        const payload = body !== undefined ? JSON.stringify(body) : undefined;
        // A POST is tried again only when it cannot act twice: link creation carries its Idempotency-Key,
        // and the other POSTs change a state that a second try finds already changed (a 409, not a double).
        for (let attempt = 0;; attempt++) {
            let response;
            try {
                response = await this.fetch(url, { method: operation.method, headers, body: payload, signal });
            }
            catch (error) {
                if (signal?.aborted || attempt >= this.maxRetries) {
                    throw new ConnectionError(`${id}: could not reach ${this.baseUrl} (${error.message})`, { cause: error });
                }
                await sleep(this.backoff(attempt), signal);
                continue;
            }
            if (response.ok)
                return (await response.json());
            const errorBody = await response.json().catch(() => undefined);
            const failure = apiError(response.status, errorBody?.error, response.headers);
            if ((response.status === 429 || response.status === 503) && attempt < this.maxRetries) {
                await sleep(Math.min(failure.retryAfter !== undefined ? failure.retryAfter * 1000 : this.backoff(attempt), this.maxRetryWaitMs), signal);
                continue;
            }
            throw failure;
        }
    }
    /** 0.5 s, 1 s, 2 s… with some jitter, when the API said nothing. */
    backoff(attempt) {
        return Math.min(500 * 2 ** attempt, this.maxRetryWaitMs) * (0.75 + Math.random() / 2);
    }
}
export default ServicePay;
