import { z } from 'zod';
import { type ApiVersion, forVersion, LATEST_API_VERSION, planStatus20261120 } from '../api-versions';
import { invoiceSchema } from './invoice-view';

export { INVOICE_KINDS, INVOICE_STATUSES, type InvoiceStatus } from './invoice-view';

// The webhook body, defined once (docs/webhooks.md#payload): the outbox parses every body through it
// and the OpenAPI document publishes it. No app imports: db/schema.ts reads the event names.

/** Every merchant gets these. */
export const WEBHOOK_EVENTS = {
  'subscription.charge.approved': { status: 'APPROVED', when: 'A charge was processed and approved' },
  'subscription.charge.declined': { status: 'DECLINED', when: 'A charge was rejected (insufficient funds, blocked card…)' },
  'subscription.charge.error': { status: 'ERROR', when: 'A technical error stopped the charge' },
  'subscription.charge.voided': { status: 'VOIDED', when: 'An approved charge was annulled' },
} as const;

export type ChargeEventType = keyof typeof WEBHOOK_EVENTS;
export const CHARGE_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [ChargeEventType, ...ChargeEventType[]];

/** Only to merchants who chose them. */
export const LIFECYCLE_EVENTS = {
  'subscription.activated': 'A RECURRING plan became ACTIVE with its first approved charge',
  'subscription.paused': 'The merchant paused the plan',
  'subscription.resumed': 'The merchant resumed the plan',
  'subscription.cancelled': 'The plan was cancelled: by the merchant, by the customer, or when the last renewal retry failed',
  'subscription.payment_method_updated': 'The customer replaced the payment method renewals charge',
  'subscription.updated': "The plan's price changed: at once (after its prorated charge), or scheduled for its next renewal (data.change)",
  'subscription.renewal_due':
    'A renewal link was issued: the customer pays this period at data.renewal.url until data.renewal.expiresAt (a plan paid by PSE, or the ladder after the last failed retry)',
  'subscription.trial_will_end': "A free trial ends in 3 days (or, for a shorter trial, when it starts): its first charge, data.trial.amount, is made at data.trial.endsAt",
  'charge.refund_due':
    'A renewal-link payment by PSE or Nequi was approved after its plan was cancelled or paused and cannot be voided: refund data.refund to the customer, then mark it refunded in the portal',
  'invoice.issued': "DIAN validated a charge's electronic invoice or a void's credit note (data.invoice)",
  'invoice.rejected': "DIAN rejected a charge's electronic invoice or a void's credit note: data.invoice.errors says why; fix it and retry it in the portal",
} as const;

export type LifecycleEventType = keyof typeof LIFECYCLE_EVENTS;
export const LIFECYCLE_EVENT_TYPES = Object.keys(LIFECYCLE_EVENTS) as [LifecycleEventType, ...LifecycleEventType[]];

/** Events that arrived with a later API version: a merchant pinned before it never gets them, chosen or not. */
const LIFECYCLE_EVENT_SINCE: Partial<Record<LifecycleEventType, ApiVersion>> = {
  'charge.refund_due': '2026-11-28',
  'invoice.issued': '2026-11-28',
  'invoice.rejected': '2026-11-28',
};

export function lifecycleEventIn(type: LifecycleEventType, version: ApiVersion): boolean {
  const since = LIFECYCLE_EVENT_SINCE[type];
  return since === undefined || version >= since;
}

export type WebhookEventType = ChargeEventType | LifecycleEventType;
export const WEBHOOK_EVENT_TYPES = [...CHARGE_EVENT_TYPES, ...LIFECYCLE_EVENT_TYPES] as [WebhookEventType, ...WebhookEventType[]];

function isLifecycleEvent(type: string): type is LifecycleEventType {
  return type in LIFECYCLE_EVENTS;
}

export type FinalStatus = (typeof WEBHOOK_EVENTS)[ChargeEventType]['status'];
const FINAL_STATUSES = CHARGE_EVENT_TYPES.map((type) => WEBHOOK_EVENTS[type].status) as [FinalStatus, ...FinalStatus[]];
export const EVENT_TYPE_FOR_STATUS = Object.fromEntries(
  CHARGE_EVENT_TYPES.map((type) => [WEBHOOK_EVENTS[type].status, type]),
) as Record<FinalStatus, ChargeEventType>;

const epochMs = z.number().int().describe('Epoch milliseconds');

const planReference = {
  subscriptionPlanId: z.string().describe('The plan id returned at link creation (sub_…)'),
  externalReference: z.string().describe('Your reference, as given at link creation'),
};

export const webhookPayloadSchema = z
  .object({
    event: z.enum(CHARGE_EVENT_TYPES),
    data: z.object({
      subscriptionTransactionId: z.string().describe('Our transaction id (txn_…)'),
      ...planReference,
      transactionId: z
        .string()
        .nullable()
        .describe(
          "The payment processor's transaction id; the same value the widget's onSuccess receives. null only for a charge the processor never received",
        ),
      amount: z.number().int().describe('Cents of COP'),
      status: z.enum(FINAL_STATUSES).describe('The transaction status the event reports'),
      chargeDate: epochMs.describe('When the charge was made, epoch milliseconds'),
    }),
    timestamp: epochMs.describe('When this event was sent, epoch milliseconds'),
  })
  .meta({ id: 'WebhookEvent', description: 'The body of every webhook, sent as one JSON string (docs/webhooks.md#payload)' });

export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

export const lifecyclePayloadSchema = z
  .object({
    event: z.enum(LIFECYCLE_EVENT_TYPES),
    data: z.object({
      ...planReference,
      status: z
        .enum(['PENDING_ACTIVATION', 'TRIALING', 'ACTIVE', 'PAUSED', 'CANCELLED', 'COMPLETED'])
        .describe('The plan status after the change (TRIALING from API version 2026-11-26; PENDING_ACTIVATION before it)'),
      nextChargeDate: epochMs.nullable().describe('When the next renewal is attempted, epoch milliseconds; null when none is'),
      reason: z.string().optional().describe('subscription.cancelled only: why the plan was cancelled (`unpaid` when grace ran out)'),
      renewal: z
        .object({
          url: z.string().describe('The renewal link, to send the customer by any channel'),
          expiresAt: epochMs.describe('When the link expires (the end of grace), epoch milliseconds'),
          amount: z.number().int().describe('What the link charges, cents of COP'),
          period: epochMs.describe('The due date of the period it pays, epoch milliseconds'),
        })
        .optional()
        .describe('subscription.renewal_due only: the renewal link (docs/billing.md#renewal-links)'),
      change: z
        .object({
          amount: z.number().int().describe('The new amount, cents of COP'),
          description: z.string().describe('The plan description from then on'),
          effective: z.enum(['next_charge', 'now']),
          effectiveAt: epochMs.nullable().describe('From which due date it is charged (next_charge); null: at once, or at the next charge of a paused plan'),
          quantity: z.number().int().optional().describe('API version 2026-11-28 on: the seats from then (docs/billing.md#quantity); `amount` is then the unit price'),
        })
        .optional()
        .describe('subscription.updated only: the price change (docs/billing.md#price-changes)'),
      trial: z
        .object({
          endsAt: epochMs.describe('When the free trial ends and the first charge is made, epoch milliseconds'),
          amount: z.number().int().describe('What the first charge will be, cents of COP'),
        })
        .optional()
        .describe('subscription.trial_will_end only: the end of the free trial (docs/billing.md#trials)'),
      cancelAt: epochMs
        .nullable()
        .optional()
        .describe('subscription.updated only, API version 2026-11-28 on: when a cancellation at the end of the period takes effect; null when one was undone'),
      refund: z
        .object({
          subscriptionTransactionId: z.string().describe('Our transaction id (txn_…) of the payment to refund'),
          transactionId: z.string().nullable().describe("The payment processor's transaction id: refund it there (Wompi's dashboard)"),
          amount: z.number().int().describe('What the customer paid, cents of COP'),
          paymentMethodType: z.enum(['PSE', 'NEQUI']).describe('How it was paid'),
          chargeDate: epochMs.describe('When it was paid, epoch milliseconds'),
        })
        .optional()
        .describe('charge.refund_due only, API version 2026-11-28 on: the late payment owed back to the customer (docs/billing.md#refund-due)'),
      invoice: invoiceSchema
        .optional()
        .describe('invoice.issued and invoice.rejected only, API version 2026-11-28 on: the document as GET /merchants/invoices/{id} answers it (docs/einvoicing.md)'),
    }),
    timestamp: epochMs.describe('When this event was sent, epoch milliseconds'),
  })
  .meta({
    id: 'SubscriptionLifecycleEvent',
    description: 'The body of a lifecycle webhook, sent only to merchants who chose these events (docs/customers.md#lifecycle-events)',
  });

export type LifecyclePayload = z.infer<typeof lifecyclePayloadSchema>;

// The bodies as 2026-11-20 published them (docs/api.md#versioning): later fields are not in that
// version's bytes, and a later plan state shows as the one it grew from.

function body20261120<Data extends z.ZodRawShape>(
  schema: z.ZodObject<{ event: z.ZodType; data: z.ZodObject<Data>; timestamp: z.ZodType }>,
  fields: { [K in keyof Data]?: true },
  replaced: z.ZodRawShape = {},
) {
  const { event, data, timestamp } = schema.shape;
  const meta = schema.meta();
  return z
    .object({ event, data: (data as z.ZodObject).pick(fields as Record<string, true>).extend(replaced), timestamp })
    .meta({ id: meta?.id, description: meta?.description });
}

const webhookPayload20261120 = body20261120(webhookPayloadSchema, {
  subscriptionTransactionId: true,
  subscriptionPlanId: true,
  externalReference: true,
  transactionId: true,
  amount: true,
  status: true,
  chargeDate: true,
});

const lifecyclePayload20261120 = body20261120(
  lifecyclePayloadSchema,
  { subscriptionPlanId: true, externalReference: true, status: true, nextChargeDate: true, reason: true },
  { status: planStatus20261120 },
);

export function webhookPayloadIn(version: ApiVersion): z.ZodType {
  return forVersion<z.ZodType>(webhookPayloadSchema, { '2026-11-20': webhookPayload20261120 }, version);
}

/** Without what 2026-11-28 added. */
const lifecyclePayload20261126 = z
  .object({
    ...lifecyclePayloadSchema.shape,
    data: lifecyclePayloadSchema.shape.data.omit({ cancelAt: true, refund: true, invoice: true }).extend({
      change: lifecyclePayloadSchema.shape.data.shape.change.unwrap().omit({ quantity: true }).optional(),
    }),
  })
  .meta({ id: lifecyclePayloadSchema.meta()?.id, description: lifecyclePayloadSchema.meta()?.description });

export function lifecyclePayloadIn(version: ApiVersion): z.ZodType {
  return forVersion<z.ZodType>(lifecyclePayloadSchema, { '2026-11-20': lifecyclePayload20261120, '2026-11-26': lifecyclePayload20261126 }, version);
}

export function payloadSchemaFor(event: unknown) {
  return typeof event === 'string' && isLifecycleEvent(event) ? lifecyclePayloadSchema : webhookPayloadSchema;
}

/** The newest version unless given. */
export function serializeLifecyclePayload(payload: LifecyclePayload, version: ApiVersion = LATEST_API_VERSION): string {
  return JSON.stringify(lifecyclePayloadIn(version).parse(lifecyclePayloadSchema.parse(payload)));
}

/** Checked against the published schema first. */
export function serializeWebhookPayload(payload: WebhookPayload, version: ApiVersion = LATEST_API_VERSION): string {
  return JSON.stringify(webhookPayloadIn(version).parse(webhookPayloadSchema.parse(payload)));
}
