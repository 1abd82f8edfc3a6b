// POST /merchants/subscription-plans/{id}/resume (DECISIONS 11, extension)
import { readJson } from '@/lib/api/body';
import { withMerchant } from '@/lib/api/with-merchant';
import { resumePlan } from '@/lib/plans/lifecycle';
import { emptyBodySchema } from '@/lib/plans/schemas';
import { toPlanRecord } from '@/lib/plans/views';

export const POST = withMerchant<{ id: string }>(
  async (req, { db, merchant, params }) => {
    await readJson(req, emptyBodySchema, { optional: true });
    return Response.json(toPlanRecord(await resumePlan(db, { merchantId: merchant.merchantId, planId: params.id })));
  },
  { limit: 'merchant' },
);
