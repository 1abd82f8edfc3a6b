// POST and GET /merchants/coupons (extension, docs/billing.md#coupons), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { SHARED_LIMIT } from '@/lib/openapi/components';
import { couponExample } from '@/lib/openapi/examples';
import { couponPageSchema, couponSchema, createCouponBodySchema, listCouponsQuerySchema } from '@/lib/coupons/schemas';

const CREATE_EXAMPLE = { code: 'BIENVENIDA20', percentOff: 20, duration: 'repeating', durationInPeriods: 3, maxRedemptions: 100, redeemBy: '2026-12-31T23:59:59Z' };

export const POST = operation({
  method: 'POST',
  path: '/merchants/coupons',
  operationId: 'createCoupon',
  summary: 'Create a coupon',
  tag: 'Coupons',
  auth: 'merchant',
  limit: 'merchant',
  description: [
    'Extension (docs/billing.md#coupons). A coupon takes `percentOff` (1 to 99) or `amountOff` (cents of COP) off a plan\'s charges: its first (`once`), ' +
      'its first `durationInPeriods` (`repeating`, 1 to 36) or every one (`forever`). Apply it to a link with `plan.coupon` (its id or code), or let the customer type ' +
      'its `code` on the hosted page (`plan.allowPromotionCodes: true`). The plan keeps its list price; each transaction records what was charged (`amount`) and the discount.',
    '',
    '`maxRedemptions` caps how many plans may have it, `redeemBy` until when it may be applied; both are checked when it is applied, whatever the concurrency. ' +
      'Another live coupon with the same `code` is a `409`.',
    '',
    SHARED_LIMIT,
  ].join('\n'),
  body: { schema: createCouponBodySchema, required: true, example: CREATE_EXAMPLE },
  replies: { 201: { description: 'The coupon', body: { schema: couponSchema, example: couponExample } } },
  errors: ['invalid_request', 'unauthorized', 'conflict', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
  sample: { path: '/merchants/coupons', body: CREATE_EXAMPLE },
});

export const GET = operation({
  method: 'GET',
  path: '/merchants/coupons',
  operationId: 'listCoupons',
  summary: 'List coupons',
  tag: 'Coupons',
  auth: 'merchant',
  limit: 'merchant',
  description: `Extension (docs/billing.md#coupons). Your live coupons, newest first, each with how many times it was redeemed. Pages hold \`limit\` coupons; pass \`nextCursor\` as \`cursor\` for the next one.\n\n${SHARED_LIMIT}`,
  query: listCouponsQuerySchema,
  replies: { 200: { description: 'A page of coupons', body: { schema: couponPageSchema, example: { data: [couponExample], nextCursor: null } } } },
  errors: ['invalid_request', 'unauthorized', 'rate_limited', 'internal_error'],
  sample: { path: '/merchants/coupons?limit=20' },
});
