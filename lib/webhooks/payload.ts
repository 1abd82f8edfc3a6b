import { z } from 'zod';

// The webhook body, defined once (docs/webhooks.md#payload): the outbox builds every body by
// parsing through this schema, the OpenAPI document publishes it, and the tests check every body
// the suite stores against it. No app imports here: db/schema.ts reads the event names too.

/** Every event a merchant can receive, with the transaction status it reports. */
export const WEBHOOK_EVENTS = {
  'subscription.charge.approved': { status: 'APPROVED', when: 'A charge was processed and approved' },
  'subscription.charge.declined': { status: 'DECLINED', when: 'A charge was rejected (insufficient funds, blocked card…)' },
  'subscription.charge.error': { status: 'ERROR', when: 'A technical error stopped the charge' },
  'subscription.charge.voided': { status: 'VOIDED', when: 'An approved charge was annulled' },
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

/** The transaction statuses that end in an event, and the event each one is. */
export type FinalStatus = (typeof WEBHOOK_EVENTS)[WebhookEventType]['status'];
export const FINAL_STATUSES = WEBHOOK_EVENT_TYPES.map((type) => WEBHOOK_EVENTS[type].status) as [FinalStatus, ...FinalStatus[]];
export const EVENT_TYPE_FOR_STATUS = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [WEBHOOK_EVENTS[type].status, type]),
) as Record<FinalStatus, WebhookEventType>;

const epochMs = z.number().int().describe('Epoch milliseconds');

export const webhookPayloadSchema = z
  .object({
    event: z.enum(WEBHOOK_EVENT_TYPES),
    data: z.object({
      subscriptionTransactionId: z.string().describe('Our transaction id (txn_…)'),
      subscriptionPlanId: z.string().describe('The plan id returned at link creation (sub_…)'),
      externalReference: z.string().describe('Your reference, as given at link creation'),
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

/**
 * The exact bytes of a webhook body: parsed through the published schema (so a body the
 * document would reject is never stored, let alone sent), in the schema's field order.
 */
export function serializeWebhookPayload(payload: WebhookPayload): string {
  return JSON.stringify(webhookPayloadSchema.parse(payload));
}
