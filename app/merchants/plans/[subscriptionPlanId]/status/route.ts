// GET /merchants/plans/{subscriptionPlanId}/status (docs/api.md#plan-status)
import { getPlanWithLastTransaction } from '@/db/queries/plans';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { toPlanStatus } from '@/lib/plans/views';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, merchant, params }) => {
  const planId = params.subscriptionPlanId;
  const found = await findMerchantPlan(db, planId, () => getPlanWithLastTransaction(db, { merchantId: merchant.merchantId, planId }));
  return jsonResponse(toPlanStatus(found.plan, found.lastTransaction));
});
