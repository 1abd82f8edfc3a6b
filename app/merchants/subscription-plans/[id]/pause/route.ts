// POST /merchants/subscription-plans/{id}/pause (docs/billing.md, extension)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { merchantNow } from '@/lib/clock';
import { pausePlan } from '@/lib/plans/lifecycle';
import { toPlanRecord } from '@/lib/plans/views';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, params, body }) => {
  const scope = { merchantId: merchant.merchantId, planId: params.id };
  const now = body.resumesAt ? await merchantNow(db, merchant.merchantId) : undefined;
  return jsonResponse(toPlanRecord(await pausePlan(db, scope, { resumesAt: body.resumesAt, now })));
});
