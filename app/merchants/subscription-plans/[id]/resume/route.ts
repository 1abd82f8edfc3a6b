// POST /merchants/subscription-plans/{id}/resume (docs/billing.md, extension)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { merchantNow } from '@/lib/clock';
import { resumePlan } from '@/lib/plans/lifecycle';
import { toPlanRecord } from '@/lib/plans/views';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, params }) =>
  // The next charge is counted from the merchant's test clock where it has one (docs/billing.md#test-clocks).
  jsonResponse(toPlanRecord(await resumePlan(db, { merchantId: merchant.merchantId, planId: params.id }, await merchantNow(db, merchant.merchantId)))),
);
