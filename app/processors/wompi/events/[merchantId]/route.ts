// POST /processors/wompi/events/{merchantId}: the merchant's Wompi account reports a transaction
// (docs/processors.md). 401 when the checksum does not match; 200 for every valid event.
import { getDb } from '@/db/client';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { receiveWompiEvent } from '@/lib/settlement/wompi-events';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { params, body }) => {
  const outcome = await receiveWompiEvent(await getDb(), params.merchantId, body);
  return jsonResponse({ received: true, outcome });
});
