// POST /merchants/subscription-plans/{id}/cancel (DECISIONS 11, extension)
import { readJson } from '@/lib/api/body';
import { withMerchant } from '@/lib/api/with-merchant';
import { cancelPlan } from '@/lib/plans/lifecycle';
import { cancelPlanBodySchema } from '@/lib/plans/schemas';
import { toPlanRecord } from '@/lib/plans/views';

export const POST = withMerchant<{ id: string }>(
  async (req, { db, merchant, params }) => {
    const { reason } = await readJson(req, cancelPlanBodySchema, { optional: true });
    return Response.json(toPlanRecord(await cancelPlan(db, { merchantId: merchant.merchantId, planId: params.id }, reason)));
  },
  { limit: 'merchant' },
);
