// POST /processors/wompi/events/{merchantId}: the merchant's Wompi account reports a transaction
// (docs/processors.md). 401 when the checksum does not match; 200 for every valid event.
import { getDb } from '@/db/client';
import { readJsonObject } from '@/lib/api/body';
import { withApi } from '@/lib/api/handler';
import { receiveWompiEvent } from '@/lib/payments/wompi/events';

export const POST = withApi<{ merchantId: string }>(async (req, { params }) => {
  const outcome = await receiveWompiEvent(await getDb(), params.merchantId, await readJsonObject(req));
  return Response.json({ received: true, outcome });
});
