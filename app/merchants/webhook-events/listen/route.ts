// GET /merchants/webhook-events/listen: the newest events for webhooks:listen, in its own rate-limit bucket (extension)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { listMerchantEvents } from '@/lib/webhooks/merchant-events';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, merchant, query }) => jsonResponse(await listMerchantEvents(db, merchant.merchantId, query)));
