// POST /merchants/subscription-plans/{id}/manage-link (docs/customers.md, extension): a link to the
// plan's customer page, /manage/<token>, valid for 7 days. docs/customers.md#the-manage-page
import { getPlanForMerchant } from '@/db/queries/plans';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { createManageLink } from '@/lib/auth/manage-links';
import { manageLinkSchema } from '@/lib/customers/schemas';
import { findMerchantPlan } from '@/lib/api/find-plan';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, params }) => {
  const plan = await findMerchantPlan(db, params.id, () => getPlanForMerchant(db, { merchantId: merchant.merchantId, planId: params.id }));
  const link = await createManageLink(db, plan, { source: 'merchant' });
  return jsonResponse(manageLinkSchema.parse({ url: link.url, expiresAt: link.expiresAt.toISOString() }), { status: 201 });
});
