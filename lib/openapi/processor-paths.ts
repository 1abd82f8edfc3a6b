import { errorReplies } from './components';
import { curlSample } from './curl';
import { IDS } from './examples';
import type { PathItems } from './json-schema';

export { merchantProcessorSchema } from '@/lib/merchants/schemas';

// Processors (docs/processors.md): what replies show of a merchant's processor, and the URL
// Wompi sends its events to.

export const merchantProcessorExample = { type: 'wompi' as const, publicKey: 'pub_test_Q5yDA9xoKdePzhSGeVe9HAez7HgGORGf' };

export function processorPaths(appUrl: string): PathItems {
  return {
    '/processors/wompi/events/{merchantId}': {
      post: {
        operationId: 'receiveWompiEvent',
        summary: "Wompi's events for one merchant",
        tags: ['Checkout'],
        security: [],
        description:
          "Where the merchant's Wompi account sends its events (paste this URL in Wompi's dashboard). The checksum is checked from the event's own " +
          '`signature.properties` with the merchant\'s events secret (401 when it does not match); a valid event answers 200 at once, also when it was already ' +
          'applied (Wompi retries), and settles the transaction under the plan lock with its webhook event in the same database transaction.',
        parameters: [
          { name: 'merchantId', in: 'path', required: true, description: 'The merchant whose Wompi account sends the event', schema: { type: 'string' }, example: IDS.merchant },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['event', 'data', 'signature', 'timestamp'],
                properties: {
                  event: { type: 'string', examples: ['transaction.updated'] },
                  data: { type: 'object' },
                  environment: { type: 'string', enum: ['test', 'prod'] },
                  signature: {
                    type: 'object',
                    required: ['properties', 'checksum'],
                    properties: { properties: { type: 'array', items: { type: 'string' } }, checksum: { type: 'string' } },
                  },
                  timestamp: { type: 'integer' },
                },
              },
            },
          },
        },
        responses: {
          '200': { description: 'Received (applied now, applied before, or not about a transaction of ours)' },
          ...errorReplies(['invalid_request', 'unauthorized', 'payload_too_large', 'unsupported_media_type', 'internal_error'], {
            rateLimited: false,
            examples: { unauthorized: { message: 'The event checksum does not match' } },
          }),
        },
        'x-codeSamples': [
          curlSample(appUrl, {
            method: 'POST',
            path: `/processors/wompi/events/${IDS.merchant}`,
            auth: 'none',
            body: { event: 'transaction.updated', data: { transaction: { id: '11854-1619134541-79541', status: 'APPROVED', amount_in_cents: 150000, reference: IDS.transaction } }, signature: { properties: ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'], checksum: '…' }, timestamp: 1763740800 },
          }),
        ],
      },
    },
  };
}
