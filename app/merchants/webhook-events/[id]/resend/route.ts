// POST /merchants/webhook-events/{id}/resend: deliver an event again, same bytes and id (extension, docs/webhooks.md#delivery, docs/billing.md)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { resendMerchantEvent } from '@/lib/webhooks/merchant-events';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, params }) =>
  jsonResponse(await resendMerchantEvent(db, merchant.merchantId, params.id), { status: 202 }),
);
