// DELETE /merchants/coupons/{id} (extension, docs/billing.md#coupons)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { deleteCoupon } from '@/lib/coupons/coupons';
import * as op from './operation';

export const DELETE = route(op.DELETE, async (_req, { db, merchant, params }) => jsonResponse(await deleteCoupon(db, merchant.merchantId, params.id)));
