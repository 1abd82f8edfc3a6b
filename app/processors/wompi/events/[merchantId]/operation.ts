// POST /processors/wompi/events/{merchantId} (docs/processors.md), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { IDS } from '@/lib/openapi/examples';
import { wompiEventSchema } from '@/lib/settlement/wompi-events';

export const POST = operation({
  method: 'POST',
  path: '/processors/wompi/events/{merchantId}',
  operationId: 'receiveWompiEvent',
  summary: "Wompi's events for one merchant",
  tag: 'Checkout',
  auth: 'none',
  description:
    "Where the merchant's Wompi account sends its events (paste this URL in Wompi's dashboard). The checksum is checked from the event's own " +
    "`signature.properties` with the merchant's events secret (401 when it does not match); a valid event answers 200 at once, also when it was already " +
    'applied (Wompi retries), and settles the transaction under the plan lock with its webhook event in the same database transaction.',
  params: { merchantId: { description: 'The merchant whose Wompi account sends the event', example: IDS.merchant } },
  body: { schema: wompiEventSchema, required: true },
  replies: { 200: { description: 'Received (applied now, applied before, or not about a transaction of ours)', headers: false } },
  errors: ['invalid_request', 'unauthorized', 'payload_too_large', 'unsupported_media_type', 'internal_error'],
  errorExamples: { unauthorized: { message: 'The event checksum does not match' } },
  sample: {
    path: `/processors/wompi/events/${IDS.merchant}`,
    body: {
      event: 'transaction.updated',
      data: { transaction: { id: '11854-1619134541-79541', status: 'APPROVED', amount_in_cents: 150000, reference: IDS.transaction } },
      signature: { properties: ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'], checksum: '…' },
      timestamp: 1763740800,
    },
  },
});
