// GET /merchants/subscription-plans/{id} (docs/api.md#plan-record, docs/api.md#plan-status)
import { getPlanForMerchant } from '@/db/queries/plans';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { findMerchantPlan } from '@/lib/plans/find-plan';
import { toPlanRecord } from '@/lib/plans/views';
import { openRenewalUrl } from '@/lib/settlement/renewal-links';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, merchant, params }) => {
  const plan = await findMerchantPlan(db, params.id, () => getPlanForMerchant(db, { merchantId: merchant.merchantId, planId: params.id }));
  return jsonResponse(toPlanRecord(plan, { renewalUrl: await openRenewalUrl(db, plan.id) }));
});
