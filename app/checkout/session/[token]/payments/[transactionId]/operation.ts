// GET /checkout/session/{token}/payments/{transactionId}, declared for its route; left out of the
// merchants' reference.
import { operation } from '@/lib/api/operation';
import { IDS } from '@/lib/openapi/examples';
import { tokenParam } from '../../operation';
import { idPattern } from '@/lib/ids';

export const GET = operation({
  method: 'GET',
  path: '/checkout/session/{token}/payments/{transactionId}',
  operationId: 'getCheckoutPayment',
  summary: 'A checkout payment as it stands',
  tag: 'Checkout',
  auth: 'checkout',
  limit: 'checkout-session',
  description: 'A payment as it stands, settled first if it was PENDING and the processor has decided.',
  params: {
    token: tokenParam,
    transactionId: { description: 'Our transaction id (`txn_…`)', pattern: idPattern('txn'), example: IDS.transaction },
  },
  replies: { 200: { description: 'The payment as it stands' } },
  errors: ['session_expired', 'not_found', 'rate_limited', 'internal_error'],
  sample: { path: `/checkout/session/${IDS.token}/payments/${IDS.transaction}` },
  undocumented: 'polled by the hosted checkout page while a payment is PENDING',
});
