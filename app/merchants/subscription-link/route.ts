// POST /merchants/subscription-link (SPEC 4.1)
import { parseWith, readJsonObject } from '@/lib/api/body';
import { withMerchant } from '@/lib/api/with-merchant';
import { createPaymentLink } from '@/lib/plans/create-link';
import { runIdempotent } from '@/lib/plans/idempotency';
import { createLinkBodySchema, idempotencyKeySchema } from '@/lib/plans/schemas';
import { ApiError } from '@/lib/api/errors';

export const POST = withMerchant(
  async (req, { db, merchant }) => {
    const idempotencyKey = req.headers.get('idempotency-key');
    if (idempotencyKey !== null && !idempotencyKeySchema.safeParse(idempotencyKey).success) {
      throw new ApiError('invalid_request', 'Idempotency-Key must be 1 to 255 characters');
    }
    const raw = await readJsonObject(req);
    const body = parseWith(createLinkBodySchema, raw);
    if (idempotencyKey === null) {
      const link = await db.transaction((tx) => createPaymentLink(tx, merchant.merchantId, body));
      return Response.json(link);
    }
    const stored = await runIdempotent(db, { merchantId: merchant.merchantId, key: idempotencyKey, body: raw }, async (tx) => ({
      status: 200,
      body: await createPaymentLink(tx, merchant.merchantId, body),
    }));
    return new Response(stored.body, {
      status: stored.status,
      headers: { 'Content-Type': 'application/json', ...(stored.replayed ? { 'Idempotent-Replayed': 'true' } : {}) },
    });
  },
  { limit: 'create-link' },
);
