// POST /merchants/subscription-plans/{id}/usage (docs/billing.md#metered-usage): one usage report, idempotent by its key
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { merchantNow } from '@/lib/clock';
import { reportUsage } from '@/lib/plans/usage';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, params, body }) => {
  const { report, created } = await reportUsage(db, { merchantId: merchant.merchantId, planId: params.id }, body, await merchantNow(db, merchant.merchantId));
  return jsonResponse(report, { status: created ? 201 : 200 });
});
