// GET /merchants/plans/{subscriptionPlanId}/status (SPEC 4.2)
import { getPlanWithLastTransaction } from '@/db/queries/plans';
import { withMerchant } from '@/lib/api/with-merchant';
import { findMerchantPlan } from '@/lib/plans/find-plan';
import { toPlanStatus } from '@/lib/plans/views';

export const GET = withMerchant<{ subscriptionPlanId: string }>(
  async (_req, { db, merchant, params }) => {
    const planId = params.subscriptionPlanId;
    const found = await findMerchantPlan(db, planId, () =>
      getPlanWithLastTransaction(db, { merchantId: merchant.merchantId, planId }),
    );
    return Response.json(toPlanStatus(found.plan, found.lastTransaction));
  },
  { limit: 'plan-status' },
);
