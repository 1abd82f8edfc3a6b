/** The API version these types describe; the client sends it in ServicePay-Version. */
export declare const API_VERSION = "2026-11-26";
/** Body of POST /merchants/subscription-plans/{id}/cancel; it may be left out. */
export type CancelPlanRequest = {
    /** Why the plan ends, for your records */
    reason?: string;
};
/** Body of POST /merchants/subscription-link (docs/api.md#create-a-payment-link). */
export type CreateLinkRequest = {
    customer: {
        /** Phone in E.164 form, with country code */
        phone: string;
        /** Customer e-mail address */
        email: string;
        /** Pre-fills the checkout form */
        firstName?: string;
        /** Pre-fills the checkout form */
        lastName?: string;
        /** Identity document type; send it together with idNumber */
        idType?: "CC" | "CE" | "NIT" | "PP";
        /** Identity document number; send it together with idType */
        idNumber?: string;
    };
    plan: {
        /** Your own reference (an order id or similar). Only one open plan (PENDING_ACTIVATION, ACTIVE or PAUSED) may carry it */
        externalReference: string;
        /** Plan name shown in the checkout */
        description: string;
        /** Amount in cents of COP, a whole number: 150000 is $1.500 COP */
        amount: number;
        /** RECURRING is charged every interval (every month unless `interval` says otherwise); SINGLE is charged once */
        modality?: "RECURRING" | "SINGLE";
        /** Extension, RECURRING only: how often the plan is charged. Every month when left out */
        interval?: PlanInterval;
    };
};
/** No fields; the body may be left out. */
export type EmptyRequest = Record<string, never>;
/** The body of every 4xx and 5xx reply */
export type ErrorBody = {
    error: {
        /** Stable; branch on it, not on the message */
        code: "invalid_request" | "session_expired" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "idempotency_key_reused" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error";
        /** For a developer to read; its wording may change */
        message: string;
        /** Only for invalid_request: one entry per invalid field */
        details?: Array<{
            /** Dotted path of the field, such as customer.email */
            path: string;
            message: string;
        }>;
        /** Same value as the X-Request-Id header */
        requestId: string;
    };
};
export type ManageLink = {
    /** The customer page, /manage/<token>: send it to the customer; it opens this plan without any login */
    url: string;
    /** When the link stops working (7 days after it was made) */
    expiresAt: string;
};
export type PaymentLink = {
    /** Checkout token; the secret of the checkout session */
    token: string;
    /** Checkout address: {APP_URL}/pay/{token} */
    url: string;
    /** ISO 8601 UTC with milliseconds */
    expiresAt: string;
    /** sub_… identifier of the created plan */
    subscriptionPlanId: string;
};
/** How often a RECURRING plan is charged: every `count` weeks (1..52), months (1..12) or years (1..3) */
export type PlanInterval = {
    unit: "week" | "month" | "year";
    count: number;
};
export type PlanStatus = {
    subscriptionPlanId: string;
    externalReference: string;
    plan: {
        status: "PENDING_ACTIVATION" | "ACTIVE" | "PAUSED" | "CANCELLED" | "COMPLETED";
        /** Cents of COP */
        amount: number;
        currency: "COP";
        description: string;
        /** Null while no charge is scheduled (PAUSED, CANCELLED, COMPLETED) */
        nextChargeDate: number | null;
        /** Extension (docs/billing.md#intervals): present only for a plan charged other than every month */
        interval?: PlanInterval | null;
    };
    /** Absent before the first payment */
    lastTransaction?: {
        subscriptionTransactionId: string;
        status: "PENDING" | "APPROVED" | "DECLINED" | "VOIDED" | "ERROR";
        amount: number;
        /** Epoch milliseconds */
        chargeDate: number;
        /** Processor id: hyphen-separated numeric parts */
        gatewayTransactionId: string | null;
    };
};
/** The body of a lifecycle webhook, sent only to merchants who chose these events (docs/customers.md#lifecycle-events) */
export type SubscriptionLifecycleEvent = {
    event: "subscription.activated" | "subscription.paused" | "subscription.resumed" | "subscription.cancelled" | "subscription.payment_method_updated" | "subscription.renewal_due";
    data: {
        /** The plan id returned at link creation (sub_…) */
        subscriptionPlanId: string;
        /** Your reference, as given at link creation */
        externalReference: string;
        /** The plan status after the change */
        status: "PENDING_ACTIVATION" | "ACTIVE" | "PAUSED" | "CANCELLED" | "COMPLETED";
        /** When the next renewal is attempted, epoch milliseconds; null when none is */
        nextChargeDate: number | null;
        /** subscription.cancelled only: why the plan was cancelled (`unpaid` when grace ran out) */
        reason?: string;
        /** subscription.renewal_due only: the renewal link (docs/billing.md#renewal-links) */
        renewal?: {
            /** The renewal link, to send the customer by any channel */
            url: string;
            /** When the link expires (the end of grace), epoch milliseconds */
            expiresAt: number;
            /** What the link charges, cents of COP */
            amount: number;
            /** The due date of the period it pays, epoch milliseconds */
            period: number;
        };
    };
    /** When this event was sent, epoch milliseconds */
    timestamp: number;
};
export type SubscriptionPlan = {
    id: string;
    merchantId: string;
    /** cus_… customer id, one per merchant and e-mail */
    userId: string;
    externalReference: string;
    description: string;
    amount: number;
    currency: "COP";
    modality: "RECURRING" | "SINGLE";
    /** null for SINGLE; `MONTHLY` for a plan charged every month; `{ unit, count }` for any other interval (extension, docs/billing.md#intervals) */
    interval: "MONTHLY" | PlanInterval | null;
    status: "PENDING_ACTIVATION" | "ACTIVE" | "PAUSED" | "CANCELLED" | "COMPLETED";
    nextChargeDate: number | null;
    createdAt: string;
    updatedAt: string;
    customer: {
        phone: string;
        email: string;
        firstName: string | null;
        lastName: string | null;
        idType: "CC" | "CE" | "NIT" | "PP" | null;
        idNumber: string | null;
    };
};
export type VoidedTransaction = {
    subscriptionTransactionId: string;
    status: "VOIDED";
    /** Cents of COP */
    amount: number;
    /** Epoch milliseconds of the original charge (a void does not change it) */
    chargeDate: number;
    /** Processor id: hyphen-separated numeric parts */
    gatewayTransactionId: string | null;
};
export type WebhookAttempt = {
    attemptedAt: string;
    /** `automatic` (the one delivery of docs/webhooks.md#events) or `manual` (a resend) */
    trigger: "automatic" | "manual";
    /** Where it was sent */
    url: string;
    /** Whether the receiver answered 2xx */
    ok: boolean;
    /** The receiver’s HTTP status; null when no reply came */
    statusCode: number | null;
    latencyMs: number;
    /** Why no usable reply came, as `<kind>: <detail>`: timeout, connection_refused, tls_error, dns_error, private_address, redirect_not_followed, network_error */
    error: string | null;
    /** The first 2 KiB of the reply body */
    responseExcerpt: string | null;
};
/** The body of every webhook, sent as one JSON string (docs/webhooks.md#payload) */
export type WebhookEvent = {
    event: "subscription.charge.approved" | "subscription.charge.declined" | "subscription.charge.error" | "subscription.charge.voided";
    data: {
        /** Our transaction id (txn_…) */
        subscriptionTransactionId: string;
        /** The plan id returned at link creation (sub_…) */
        subscriptionPlanId: string;
        /** Your reference, as given at link creation */
        externalReference: string;
        /** The payment processor's transaction id; the same value the widget's onSuccess receives. null only for a charge the processor never received */
        transactionId: string | null;
        /** Cents of COP */
        amount: number;
        /** The transaction status the event reports */
        status: "APPROVED" | "DECLINED" | "ERROR" | "VOIDED";
        /** When the charge was made, epoch milliseconds */
        chargeDate: number;
    };
    /** When this event was sent, epoch milliseconds */
    timestamp: number;
};
export type WebhookEventPage = {
    /** Newest first */
    data: Array<WebhookEventRecord>;
    /** Pass as `cursor` for the next page; null on the last page */
    nextCursor: string | null;
};
export type WebhookEventRecord = {
    /** evt_…, also sent as X-Webhook-Id */
    id: string;
    event: "subscription.charge.approved" | "subscription.charge.declined" | "subscription.charge.error" | "subscription.charge.voided" | "subscription.activated" | "subscription.paused" | "subscription.resumed" | "subscription.cancelled" | "subscription.payment_method_updated" | "subscription.renewal_due";
    subscriptionPlanId: string;
    /** The transaction a charge event reports; null for a lifecycle event */
    subscriptionTransactionId: string | null;
    createdAt: string;
    /** The exact bytes sent (and signed) on every delivery of this event */
    body: string;
    /** Oldest first; empty when no webhook URL was configured */
    attempts: Array<WebhookAttempt>;
};
export type WebhookResend = {
    id: string;
    status: "queued";
};
/** Every merchant operation: its path parameters, query, body and reply. */
export interface Operations {
    createSubscriptionLink: {
        params: {};
        query: {};
        body: CreateLinkRequest;
        reply: PaymentLink;
    };
    getPlanStatus: {
        params: {
            subscriptionPlanId: string;
        };
        query: {};
        body: never;
        reply: PlanStatus;
    };
    getSubscriptionPlan: {
        params: {
            id: string;
        };
        query: {};
        body: never;
        reply: SubscriptionPlan;
    };
    pauseSubscriptionPlan: {
        params: {
            id: string;
        };
        query: {};
        body: EmptyRequest;
        reply: SubscriptionPlan;
    };
    resumeSubscriptionPlan: {
        params: {
            id: string;
        };
        query: {};
        body: EmptyRequest;
        reply: SubscriptionPlan;
    };
    cancelSubscriptionPlan: {
        params: {
            id: string;
        };
        query: {};
        body: CancelPlanRequest;
        reply: SubscriptionPlan;
    };
    createManageLink: {
        params: {
            id: string;
        };
        query: {};
        body: Record<string, never>;
        reply: ManageLink;
    };
    voidTransaction: {
        params: {
            subscriptionTransactionId: string;
        };
        query: {};
        body: EmptyRequest;
        reply: VoidedTransaction;
    };
    listWebhookEvents: {
        params: {};
        query: {
            subscriptionPlanId?: string | number;
            cursor?: string | number;
            limit?: string | number;
        };
        body: never;
        reply: WebhookEventPage;
    };
    resendWebhookEvent: {
        params: {
            id: string;
        };
        query: {};
        body: never;
        reply: WebhookResend;
    };
}
/** How each operation is called. */
export declare const OPERATIONS: {
    readonly createSubscriptionLink: {
        readonly method: "POST";
        readonly path: "/merchants/subscription-link";
        readonly query: readonly [];
        readonly bodyRequired: true;
    };
    readonly getPlanStatus: {
        readonly method: "GET";
        readonly path: "/merchants/plans/{subscriptionPlanId}/status";
        readonly query: readonly [];
        readonly bodyRequired: false;
    };
    readonly getSubscriptionPlan: {
        readonly method: "GET";
        readonly path: "/merchants/subscription-plans/{id}";
        readonly query: readonly [];
        readonly bodyRequired: false;
    };
    readonly pauseSubscriptionPlan: {
        readonly method: "POST";
        readonly path: "/merchants/subscription-plans/{id}/pause";
        readonly query: readonly [];
        readonly bodyRequired: false;
    };
    readonly resumeSubscriptionPlan: {
        readonly method: "POST";
        readonly path: "/merchants/subscription-plans/{id}/resume";
        readonly query: readonly [];
        readonly bodyRequired: false;
    };
    readonly cancelSubscriptionPlan: {
        readonly method: "POST";
        readonly path: "/merchants/subscription-plans/{id}/cancel";
        readonly query: readonly [];
        readonly bodyRequired: false;
    };
    readonly createManageLink: {
        readonly method: "POST";
        readonly path: "/merchants/subscription-plans/{id}/manage-link";
        readonly query: readonly [];
        readonly bodyRequired: false;
    };
    readonly voidTransaction: {
        readonly method: "POST";
        readonly path: "/merchants/transactions/{subscriptionTransactionId}/void";
        readonly query: readonly [];
        readonly bodyRequired: false;
    };
    readonly listWebhookEvents: {
        readonly method: "GET";
        readonly path: "/merchants/webhook-events";
        readonly query: readonly ["subscriptionPlanId", "cursor", "limit"];
        readonly bodyRequired: false;
    };
    readonly resendWebhookEvent: {
        readonly method: "POST";
        readonly path: "/merchants/webhook-events/{id}/resend";
        readonly query: readonly [];
        readonly bodyRequired: false;
    };
};
/** The JSON Schema of each request body, checked before a request is sent. */
export declare const REQUEST_BODIES: Record<string, unknown>;
