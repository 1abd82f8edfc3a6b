// GET /merchants/subscription-plans/{id} (SPEC 4.3, DECISIONS 4)
import { getPlanForMerchant } from '@/db/queries/plans';
import { withMerchant } from '@/lib/api/with-merchant';
import { findMerchantPlan } from '@/lib/plans/find-plan';
import { toPlanRecord } from '@/lib/plans/views';

export const GET = withMerchant<{ id: string }>(
  async (_req, { db, merchant, params }) => {
    const plan = await findMerchantPlan(db, params.id, () =>
      getPlanForMerchant(db, { merchantId: merchant.merchantId, planId: params.id }),
    );
    return Response.json(toPlanRecord(plan));
  },
  { limit: 'merchant' },
);
