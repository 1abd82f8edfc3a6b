// GET /merchants/webhook-events: the merchant's webhook events and their attempts (extension)
import { parseWith } from '@/lib/api/body';
import { withMerchant } from '@/lib/api/with-merchant';
import { listMerchantEvents } from '@/lib/webhooks/merchant-events';
import { listEventsQuerySchema } from '@/lib/webhooks/schemas';

export const GET = withMerchant(
  async (req, { db, merchant }) => {
    const query = parseWith(listEventsQuerySchema, Object.fromEntries(new URL(req.url).searchParams));
    return Response.json(await listMerchantEvents(db, merchant.merchantId, query));
  },
  { limit: 'merchant' },
);
