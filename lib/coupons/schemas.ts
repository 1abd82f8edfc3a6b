import { z } from 'zod';
import { COUPON_DURATIONS, COUPON_LIMITS } from '@/db/schema';
import { cursorParam, pageSchema } from '@/lib/api/pages';
import { isId } from '@/lib/ids';

// Coupons (docs/billing.md#coupons): the bodies and replies of /merchants/coupons, parsed and
// built with these; the OpenAPI document is generated from them.

export const MAX_COUPONS_PAGE = 100;
const MAX_CENTS = 99_999_999_999;
const MAX_REDEMPTIONS = 1_000_000_000;

/** A code as the customer types it: letters, digits, `-` and `_`, 3 to 40; compared upper case. */
export const COUPON_CODE = /^[A-Za-z0-9_-]{3,40}$/;

export const couponCodeSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .regex(COUPON_CODE, 'must be 3 to 40 letters, digits, - or _')
  .transform((code) => code.toUpperCase());

const whole = (what: string) => z.number({ error: (i) => (i.input === undefined ? 'is required' : `must be a number ${what}`) }).int('must be a whole number');
/** A whole number within `range`, one message for both ends. */
const within = (what: string, { min, max }: { min: number; max: number }) =>
  whole(what).min(min, `must be ${min} to ${max}`).max(max, `must be ${min} to ${max}`);

export const createCouponBodySchema = z
  .object(
    {
      code: couponCodeSchema
        .optional()
        .describe('What customers type on the hosted page (compared without case); one live coupon per code. Without it the coupon is applied only by its id'),
      percentOff: within('(a percentage)', COUPON_LIMITS.percentOff)
        .optional()
        .describe('Percent taken off each discounted charge, 1 to 99. Send this or amountOff'),
      amountOff: whole('of cents (not a string)')
        .min(1, 'must be at least 1 cent')
        .max(MAX_CENTS, `must be at most ${MAX_CENTS} cents`)
        .optional()
        .describe('Cents of COP taken off each discounted charge. Send this or percentOff'),
      duration: z
        .enum(COUPON_DURATIONS, { error: (i) => (i.input === undefined ? 'is required' : 'must be once, repeating or forever') })
        .describe('`once`: the first charge; `repeating`: the first `durationInPeriods` charges; `forever`: every charge'),
      durationInPeriods: within('of charges', COUPON_LIMITS.periods)
        .optional()
        .describe('With `repeating` only: how many approved charges carry the discount, 1 to 36'),
      maxRedemptions: whole('of redemptions')
        .min(1, 'must be at least 1')
        .max(MAX_REDEMPTIONS, `must be at most ${MAX_REDEMPTIONS}`)
        .optional()
        .describe('How many plans may have it in all; left out, no limit'),
      redeemBy: z.iso
        .datetime({ offset: true, error: 'must be an ISO 8601 date and time, such as 2026-12-31T23:59:59Z' })
        .optional()
        .describe('After this moment it can no longer be applied (plans that have it keep it)'),
    },
    { error: 'must be an object' },
  )
  .superRefine((body, ctx) => {
    if ((body.percentOff === undefined) === (body.amountOff === undefined)) {
      const message = body.percentOff === undefined ? 'send percentOff or amountOff' : 'send percentOff or amountOff, not both';
      ctx.addIssue({ code: 'custom', path: ['amountOff'], message });
    }
    if (body.duration === 'repeating' && body.durationInPeriods === undefined)
      ctx.addIssue({ code: 'custom', path: ['durationInPeriods'], message: 'is required when duration is repeating' });
    if (body.duration !== undefined && body.duration !== 'repeating' && body.durationInPeriods !== undefined)
      ctx.addIssue({ code: 'custom', path: ['durationInPeriods'], message: 'is only for duration repeating' });
  })
  .meta({ id: 'CreateCouponRequest', description: 'Body of POST /merchants/coupons (extension, docs/billing.md#coupons).' });

export type CreateCouponBody = z.infer<typeof createCouponBodySchema>;

export const couponSchema = z
  .object({
    id: z.string().describe('cpn_… identifier'),
    code: z.string().nullable().describe('Upper case; null for a coupon applied only by id'),
    percentOff: z.number().int().nullable(),
    amountOff: z.number().int().nullable().describe('Cents of COP'),
    duration: z.enum(COUPON_DURATIONS),
    durationInPeriods: z.number().int().nullable(),
    maxRedemptions: z.number().int().nullable(),
    timesRedeemed: z.number().int().describe('How many plans it was applied to'),
    redeemBy: z.iso.datetime({ precision: 3 }).nullable(),
    deleted: z.boolean().describe('A deleted coupon is applied no more; plans that have it keep their discount'),
    createdAt: z.iso.datetime({ precision: 3 }),
  })
  .meta({ id: 'Coupon' });

export type CouponView = z.infer<typeof couponSchema>;

export const listCouponsQuerySchema = z.object({
  cursor: cursorParam('cpn'),
  limit: z.coerce.number().int().min(1).max(MAX_COUPONS_PAGE).default(20).describe(`Coupons per page, 1 to ${MAX_COUPONS_PAGE}`),
});

export const couponPageSchema = pageSchema(couponSchema, { id: 'CouponPage', order: 'Live coupons, newest first' });

/** plan.coupon at link creation: a coupon's id (cpn_…) or a live code. */
export const planCouponSchema = z
  .string({ error: 'must be a string: a coupon id (cpn_…) or code' })
  .trim()
  .refine((value) => isId('cpn', value) || COUPON_CODE.test(value), 'must be a coupon id (cpn_…) or code')
  .meta({ description: 'Extension (docs/billing.md#coupons): a coupon id (`cpn_…`) or code applied to the plan', examples: ['BIENVENIDA20'] });
