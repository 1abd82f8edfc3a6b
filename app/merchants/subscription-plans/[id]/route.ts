// GET /merchants/subscription-plans/{id} (docs/api.md#plan-record); PATCH: a price change (docs/billing.md#price-changes)
import { getPlanForMerchant } from '@/db/queries/plans';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { merchantProcessors } from '@/lib/processors';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { changePlanPrice } from '@/lib/plans/price-change';
import { undoCancelAt } from '@/lib/plans/cancel-at';
import { toPlanRecord } from '@/lib/plans/views';
import { openRenewalUrl } from '@/lib/settlement/renewal-links';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, merchant, params }) => {
  const plan = await findMerchantPlan(db, params.id, () => getPlanForMerchant(db, { merchantId: merchant.merchantId, planId: params.id }));
  return jsonResponse(toPlanRecord(plan, { renewalUrl: await openRenewalUrl(db, plan.id) }));
});

export const PATCH = route(op.PATCH, async (_req, { db, merchant, params, body }) => {
  const scope = { merchantId: merchant.merchantId, planId: params.id };
  if (body.at === null) return jsonResponse(toPlanRecord(await undoCancelAt(db, (tx) => findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope)))));
  return jsonResponse(toPlanRecord(await changePlanPrice(db, merchantProcessors(db), scope, { ...body, amount: body.amount! })));
});
