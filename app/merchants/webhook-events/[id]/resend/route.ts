// POST /merchants/webhook-events/{id}/resend: deliver an event again, same bytes and id (extension, DECISIONS 8, 11)
import { withMerchant } from '@/lib/api/with-merchant';
import { resendMerchantEvent } from '@/lib/webhooks/merchant-events';

export const POST = withMerchant<{ id: string }>(
  async (_req, { db, merchant, params }) => Response.json(await resendMerchantEvent(db, merchant.merchantId, params.id), { status: 202 }),
  { limit: 'merchant' },
);
