// POST /merchants/subscription-link (docs/api.md#create-a-payment-link)
import { jsonResponse, jsonTextResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { createPaymentLink } from '@/lib/plans/create-link';
import { runIdempotent } from '@/lib/plans/idempotency';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, headers, body, rawBody, audit }) => {
  const idempotencyKey = headers['Idempotency-Key'];
  if (idempotencyKey === undefined) {
    // One statement (lib/plans/create-link.ts), the audit entry in it: no transaction, so no BEGIN and COMMIT round trips.
    return jsonResponse(await createPaymentLink(db, merchant.merchantId, body, { audit }));
  }
  const stored = await runIdempotent(db, { merchantId: merchant.merchantId, key: idempotencyKey, body: rawBody }, async (tx) => ({
    status: 200,
    // A replay runs no work: its audit entry is written after it.
    body: await createPaymentLink(tx, merchant.merchantId, body, { audit }),
  }));
  return jsonTextResponse(stored.body, { status: stored.status, headers: stored.replayed ? { 'Idempotent-Replayed': 'true' } : {} });
});
