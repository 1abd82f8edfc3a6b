// POST and GET /merchants/coupons (extension, docs/billing.md#coupons)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { createCoupon, listCoupons } from '@/lib/coupons/coupons';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, body }) => jsonResponse(await createCoupon(db, merchant.merchantId, body), { status: 201 }));

export const GET = route(op.GET, async (_req, { db, merchant, query }) => jsonResponse(await listCoupons(db, merchant.merchantId, query)));
