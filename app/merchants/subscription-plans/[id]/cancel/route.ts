// POST /merchants/subscription-plans/{id}/cancel (docs/billing.md, extension)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import type { Db } from '@/db/client';
import { getPlanForMerchant } from '@/db/queries/plans';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { merchantNow } from '@/lib/clock';
import { termEndOf } from '@/lib/calendar/schedule';
import { cancelAtPeriodEnd } from '@/lib/plans/cancel-at';
import { cancelPlan } from '@/lib/plans/lifecycle';
import { toPlanRecord } from '@/lib/plans/views';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, params, body, version }) => {
  const scope = { merchantId: merchant.merchantId, planId: params.id };
  const find = (tx: Db) => findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope));
  const now = await merchantNow(db, merchant.merchantId);
  // From 2026-11-28 a cancel that names no `at` waits for a minimum term (docs/billing.md#minimum-term).
  const waits = body.at === undefined && version >= '2026-11-28' && termEndOf(await find(db), now) !== null;
  if (body.at === 'period_end' || waits) return jsonResponse(toPlanRecord(await cancelAtPeriodEnd(db, find, { text: body.reason, now })));
  return jsonResponse(toPlanRecord(await cancelPlan(db, scope, body.reason)));
});
