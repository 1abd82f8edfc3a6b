// POST /pay/{token}/promotion-code: the hosted page's coupon-code form (docs/billing.md#coupons),
// a plain form post with or without JavaScript, answered 303 back to the page.
import { getDb } from '@/db/client';
import { withApi } from '@/lib/api/handler';
import { clientIp } from '@/lib/api/with-checkout';
import { applyPromotionCodeForm } from '@/lib/checkout/promotion-form';

export const POST = withApi<{ token: string }>(async (req, { params }) =>
  applyPromotionCodeForm(await getDb(), { req, token: params.token, clientKey: clientIp(req) }),
);
