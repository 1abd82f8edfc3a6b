// DELETE /merchants/coupons/{id} (extension, docs/billing.md#coupons), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { SHARED_LIMIT } from '@/lib/openapi/components';
import { couponExample, IDS } from '@/lib/openapi/examples';
import { couponSchema } from '@/lib/coupons/schemas';
import { idPattern } from '@/lib/ids';

export const DELETE = operation({
  method: 'DELETE',
  path: '/merchants/coupons/{id}',
  operationId: 'deleteCoupon',
  summary: 'Delete a coupon',
  tag: 'Coupons',
  auth: 'merchant',
  limit: 'merchant',
  description:
    'Extension (docs/billing.md#coupons). The coupon can no longer be applied, and its code is free for a new coupon; plans that have it keep their discount. ' +
    `A coupon of another account is a \`403\`; an unknown or already deleted one a \`404\`.\n\n${SHARED_LIMIT}`,
  params: { id: { description: 'The coupon id (cpn_…). A malformed id is answered 404.', pattern: idPattern('cpn'), example: IDS.coupon } },
  replies: { 200: { description: 'The coupon as deleted', body: { schema: couponSchema, example: { ...couponExample, deleted: true } } } },
  errors: ['unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_error'],
  sample: { path: `/merchants/coupons/${IDS.coupon}` },
});
