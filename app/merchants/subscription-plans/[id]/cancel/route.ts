// POST /merchants/subscription-plans/{id}/cancel (docs/billing.md, extension)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import type { Db } from '@/db/client';
import { getPlanForMerchant } from '@/db/queries/plans';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { merchantNow } from '@/lib/clock';
import { cancelAtPeriodEnd } from '@/lib/plans/cancel-at';
import { cancelPlan } from '@/lib/plans/lifecycle';
import { toPlanRecord } from '@/lib/plans/views';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, params, body }) => {
  const scope = { merchantId: merchant.merchantId, planId: params.id };
  if (body.at === 'period_end') {
    const find = (tx: Db) => findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope));
    return jsonResponse(toPlanRecord(await cancelAtPeriodEnd(db, find, { text: body.reason, now: await merchantNow(db, merchant.merchantId) })));
  }
  return jsonResponse(toPlanRecord(await cancelPlan(db, scope, body.reason)));
});
