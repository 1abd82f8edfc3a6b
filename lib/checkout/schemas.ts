import { z } from 'zod';
import { PLAN_STATUSES, type PlanStatus, RENEWAL_LINK_STATUSES } from '@/db/schema';
import { type CardField, type CardProblem, cardProblems, parseCard } from '@/lib/processors/card';

const PROBLEM_MESSAGES: Record<CardProblem, string> = {
  required: 'is required',
  invalid_number: 'is not a valid card number',
  invalid_expiry: 'must be a month and year as MM/YY',
  expired: 'is in the past: the card has expired',
  invalid_cvc: 'must be the 3 digits on the back of the card',
  invalid_holder: 'must be the name printed on the card',
  short_holder: 'must be the full name printed on the card, at least 5 characters',
};

const field = z.string({ error: 'must be a string' }).max(100, 'must be at most 100 characters');

/** The checkout form's card (docs/checkout.md#hosted-page). Anything else sent (an amount, a plan) is dropped. */
export const cardPaymentBodySchema = z
  .object({ cardNumber: field, cardExpiry: field, cardCvc: field, cardHolder: field })
  .superRefine((input, ctx) => {
    for (const [path, problem] of Object.entries(cardProblems(input)) as [CardField, CardProblem][]) {
      ctx.addIssue({ code: 'custom', path: [path], message: PROBLEM_MESSAGES[problem] });
    }
  })
  .transform((input) => parseCard(input)!);

/** The checkout session (docs/api.md#checkout-session): what the checkout shows for a token. */
export const checkoutSessionSchema = z
  .object({
    customer: z.object({ phone: z.string(), firstName: z.string().nullable() }),
    planName: z.string(),
    amount: z.number().int().describe('Cents of COP'),
    currency: z.literal('COP'),
    merchantName: z.string(),
    merchantId: z.string(),
    modality: z.enum(['SUBSCRIPTION', 'SINGLE']).describe('SUBSCRIPTION for a RECURRING plan, SINGLE for a SINGLE one'),
    expiresAt: z.number().int().describe('When the token expires, epoch milliseconds'),
    allowedDomains: z.array(z.string()).describe("The merchant's sites allowed to embed the checkout, as host[:port]"),
    // One shape for every API version (no merchant calls it): the five states of 2026-11-20.
    status: z
      .enum(PLAN_STATUSES.filter((s): s is Exclude<PlanStatus, 'TRIALING'> => s !== 'TRIALING'))
      .describe(
        "The plan status: for a plan's own token, anything but PENDING_ACTIVATION means there is nothing left to pay (already paid, paused or cancelled). A free trial that started shows ACTIVE, with `trial.endsAt` set",
      ),
    renewal: z
      .object({
        period: z.number().int().describe('The due date of the period this link pays, epoch milliseconds'),
        status: z.enum(RENEWAL_LINK_STATUSES).describe('OPEN while it can be paid; PAID, EXPIRED, CANCELLED or SUPERSEDED after'),
      })
      .optional()
      .describe('Only for a renewal link (docs/billing.md#renewal-links): what it pays and whether it still can be'),
    discount: z
      .object({
        code: z.string().nullable().describe("The coupon's code; null for a coupon applied by id"),
        listAmount: z.number().int().describe('The price before the discount, cents of COP (the same as `amount`)'),
        discount: z.number().int().describe('Cents taken off this charge'),
        amountDue: z.number().int().describe('What this payment charges'),
        amountLater: z.number().int().nullable().describe('What each charge is once the discount ends; null when it never ends'),
        discountedCharges: z.number().int().nullable().describe('How many charges carry the discount, this one included; null for every charge'),
      })
      .optional()
      .describe('Extension (docs/billing.md#coupons): only while a coupon takes something off this charge'),
    promotionCodes: z
      .literal(true)
      .optional()
      .describe('Extension (docs/billing.md#coupons): present when the customer may type a coupon code on the hosted page'),
    trial: z
      .object({
        days: z.number().int().describe('Days of free trial'),
        endsAt: z.number().int().nullable().describe('When the trial ends and the first charge is made, epoch milliseconds; null until the method is saved'),
      })
      .optional()
      .describe("Extension (docs/billing.md#trials): a plan's own token with a free trial: the payment saves the method and charges nothing now"),
  })
  .meta({ id: 'CheckoutSession', description: 'What the checkout shows for a token' });
