// GET /merchants/webhook-events: the merchant's webhook events and their attempts (extension)
import { route } from '@/lib/api/route';
import { listMerchantEvents } from '@/lib/webhooks/merchant-events';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, merchant, query }) => Response.json(await listMerchantEvents(db, merchant.merchantId, query)));
