import { z } from 'zod';
import { planStatus20261120 } from '@/lib/api-versions';
import { ID_TYPES, MAX_TRIAL_DAYS, MODALITIES, PLAN_STATUSES, TRANSACTION_STATUSES } from '@/db/schema';
import { INTERVAL_UNITS, MAX_INTERVAL_COUNT } from '@/lib/calendar/interval';
import { idPattern } from '@/lib/ids';
import { planCouponSchema } from '@/lib/coupons/schemas';
import { readTaxId, type TaxIdProblem } from '@/lib/einvoicing/tax-id';
import { ivaSchema } from '@/lib/invoices/settings';

// The merchant API's bodies (docs/api.md#create-a-payment-link, docs/api.md#plan-status, docs/api.md#checkout-session, docs/api.md#plan-record, docs/api.md#create-a-payment-link, docs/api.md#plan-status). Handlers parse with these, replies are
// built from them, and the OpenAPI document is generated from them.

export const MIN_AMOUNT = 100;
export const MAX_AMOUNT = 99_999_999_999;
export const MAX_QUANTITY = 10_000;
export const MIN_TERM_PERIODS = 2;
export const MAX_TERM_PERIODS = 36;

const text = (max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((v) => v.trim().length > 0, 'must not be blank');

/** The error of a missing body part, or one that is not an object. */
const anObject = { error: (i: { input: unknown }) => (i.input === undefined ? 'is required' : 'must be an object') };

const customerFields = {
      phone: z
        .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
        .regex(/^\+[1-9][0-9]{7,14}$/, 'must be an E.164 phone number with country code, such as +573001234567')
        .meta({ description: 'Phone in E.164 form, with country code', examples: ['+573001234567'] }),
      email: z
        .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
        .max(254, 'must be at most 254 characters')
        .pipe(z.email('must be an e-mail address'))
        .meta({ description: 'Customer e-mail address', format: 'email', examples: ['ana.gomez@example.com'] }),
      firstName: text(100).describe('Pre-fills the checkout form').optional(),
      lastName: text(100).describe('Pre-fills the checkout form').optional(),
      idType: z
        .enum(ID_TYPES, { error: `must be one of ${ID_TYPES.join(', ')}` })
        .describe('Identity document type; send it together with idNumber')
        .optional(),
      idNumber: z
        .string({ error: 'must be a string' })
        .regex(/^[A-Za-z0-9-]{3,20}$/, 'must be 3 to 20 letters, digits or hyphens')
        .describe('Identity document number; send it together with idType')
        .optional(),
};

/** docs/api.md#create-a-payment-link: idType and idNumber are optional as a pair; the error names the missing one. */
function idPair(c: { idType?: unknown; idNumber?: unknown }, ctx: z.RefinementCtx) {
  if (c.idType !== undefined && c.idNumber === undefined)
    ctx.addIssue({ code: 'custom', path: ['idNumber'], message: 'is required when customer.idType is given' });
  if (c.idNumber !== undefined && c.idType === undefined)
    ctx.addIssue({ code: 'custom', path: ['idType'], message: 'is required when customer.idNumber is given' });
}

/** The customer as version 2026-11-20 takes it. */
const customerSchema20261120 = z.object(customerFields, anObject).superRefine(idPair);

/**
 * Who the merchant's electronic invoices are made out to (docs/einvoicing.md#the-buyer), from
 * 2026-11-28: a NIT is read with or without its check digit (900559088-2), which is computed and
 * checked; other documents are kept whole.
 */
const TAX_ID_REFUSAL: Record<TaxIdProblem, string> = {
  type: 'must be one of CC, NIT, CE, PP',
  required: 'is required',
  final_consumer: "is the final consumer's: leave taxId out instead",
  nit: 'must be a NIT: 5 to 15 digits, optionally followed by - and its check digit',
  check_digit: "has a wrong check digit: this NIT's is {dv}",
  cc: "must be the cédula's digits",
  document: 'must be 3 to 20 letters and digits',
};

const taxIdSchema = z
  .object(
    {
      type: z.enum(ID_TYPES, { error: `must be one of ${ID_TYPES.join(', ')}` }).describe('CC cédula, NIT, CE cédula de extranjería, PP pasaporte'),
      number: z
        .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
        .max(30, 'must be at most 30 characters')
        .describe('The document number; a NIT without its check digit, or as 900559088-2 (a wrong digit is refused)'),
    },
    anObject,
  )
  .transform((id, ctx) => {
    const read = readTaxId(id.type, id.number);
    if (read.ok) return read.taxId;
    ctx.addIssue({ code: 'custom', path: ['number'], message: TAX_ID_REFUSAL[read.problem].replace('{dv}', String(read.expected)) });
    return z.NEVER;
  })
  .meta({ id: 'CustomerTaxId', description: 'The document the invoices name the buyer by (electronic invoicing, API version 2026-11-28)' });

const customerSchema = z
  .object(
    {
      ...customerFields,
      taxId: taxIdSchema.optional(),
      legalName: text(200).optional().describe('The name the invoices are made out to; required with a NIT (the company\'s name)'),
    },
    anObject,
  )
  .superRefine((c, ctx) => {
    idPair(c, ctx);
    if (c.taxId?.type === 'NIT' && c.legalName === undefined)
      ctx.addIssue({ code: 'custom', path: ['legalName'], message: "is required with a NIT: the company's name" });
    if (c.legalName !== undefined && c.taxId === undefined)
      ctx.addIssue({ code: 'custom', path: ['taxId'], message: 'is required when customer.legalName is given' });
  });

/**
 * A whole number from `min` to `max`, each refusal with its own words: `is` for a value of another
 * type ("a number of cents" → "must be a number of cents (not a string)"), `whole` for a fraction.
 */
function wholeNumber({ is, whole, min, max }: { is: string; whole: string; min: readonly [number, string]; max: readonly [number, string] }) {
  return z
    .number({ error: (i) => (i.input === undefined ? 'is required' : `must be ${is} (not a string)`) })
    .int(`must be ${whole}`)
    .min(...min)
    .max(...max);
}

const CENTS = { is: 'a number of cents', whole: 'a whole number of cents', max: [MAX_AMOUNT, `must be at most ${MAX_AMOUNT} cents`] } as const;
const centsSchema = wholeNumber({ ...CENTS, min: [MIN_AMOUNT, `must be at least ${MIN_AMOUNT} cents`] });

const amountSchema = centsSchema.meta({ description: 'Amount in cents of COP, a whole number: 150000 is $1.500 COP', examples: [150000] });

/** docs/billing.md#intervals: every `count` weeks (1..52), months (1..12) or years (1..3). */
const intervalSchema = z
  .object(
    {
      unit: z.enum(INTERVAL_UNITS, { error: (i) => (i.input === undefined ? 'is required' : 'must be week, month or year') }),
      count: z
        .number({ error: (i) => (i.input === undefined ? 'is required' : 'must be a number') })
        .int('must be a whole number')
        .min(1, 'must be at least 1'),
    },
    { error: 'must be an object { unit, count }' },
  )
  .superRefine((interval, ctx) => {
    const max = MAX_INTERVAL_COUNT[interval.unit];
    if (interval.count > max) ctx.addIssue({ code: 'custom', path: ['count'], message: `must be 1 to ${max} when unit is ${interval.unit}` });
  })
  .meta({
    id: 'PlanInterval',
    description: 'How often a RECURRING plan is charged: every `count` weeks (1..52), months (1..12) or years (1..3)',
    examples: [{ unit: 'month', count: 3 }],
  });

/** docs/billing.md#quantity: seats, 1..10,000; `amount` is then the unit price. */
const quantitySchema = wholeNumber({ is: 'a whole number', whole: 'a whole number', min: [1, 'must be at least 1'], max: [MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`] });

const planShape = z.object(
  {
    externalReference: text(255).describe(
      'Your own reference (an order id or similar). Only one open plan (PENDING_ACTIVATION, ACTIVE or PAUSED) may carry it',
    ),
    description: text(255).describe('Plan name shown in the checkout'),
    amount: amountSchema,
    modality: z
      .enum(MODALITIES, { error: 'must be RECURRING or SINGLE' })
      .default('RECURRING')
      .describe('RECURRING is charged every interval (every month unless `interval` says otherwise); SINGLE is charged once'),
    interval: intervalSchema.optional().describe('Extension, RECURRING only: how often the plan is charged. Every month when left out'),
    coupon: planCouponSchema.optional(),
    allowPromotionCodes: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .describe('Extension (docs/billing.md#coupons): the hosted page lets the customer type a coupon code. Not with `coupon`'),
    trialDays: wholeNumber({ is: 'a number of days', whole: 'a whole number of days', min: [1, 'must be at least 1 day'], max: [MAX_TRIAL_DAYS, `must be at most ${MAX_TRIAL_DAYS} days`] })
      .optional()
      .meta({
        description:
          'Extension, RECURRING only (docs/billing.md#trials): days of free trial. The checkout saves a card or Nequi account without charging; the first charge is at the end of the trial. PSE cannot start a trial',
        examples: [14],
      }),
    setupFee: centsSchema
      .optional()
      .meta({
        description:
          'Extension, API version 2026-11-28 (docs/billing.md#setup-fee): cents charged once with the first payment (at the start of a free trial), its own line on the receipt and the invoice; whole pesos through Wompi',
        examples: [5_000_000],
      }),
    usage: z
      .object(
        {
          unitAmount: wholeNumber({ ...CENTS, min: [1, 'must be at least 1 cent'] }),
          includedUnits: z
            .number({ error: 'must be a whole number' })
            .int('must be a whole number')
            .min(0, 'must be 0 or more')
            .max(1_000_000_000, 'must be at most 1000000000')
            .optional(),
        },
        { error: 'must be an object { unitAmount, includedUnits? }' },
      )
      .optional()
      .meta({
        description:
          'Extension, API version 2026-11-28, RECURRING only (docs/billing.md#metered-usage): metered usage billed in arrears with each renewal: `unitAmount` cents per unit over `includedUnits` (default 0) a period',
        examples: [{ unitAmount: 20_000, includedUnits: 100 }],
      }),
    minimumPeriods: wholeNumber({
      is: 'a whole number of periods',
      whole: 'a whole number of periods',
      min: [MIN_TERM_PERIODS, `must be at least ${MIN_TERM_PERIODS} periods`],
      max: [MAX_TERM_PERIODS, `must be at most ${MAX_TERM_PERIODS} periods`],
    })
      .optional()
      .meta({
        description:
          'Extension, API version 2026-11-28, RECURRING only (docs/billing.md#minimum-term): periods the customer commits to, counted from the first paid one. A cancel before they end takes effect when they end; you can still cancel `now`',
        examples: [12],
      }),
    billingDay: wholeNumber({ is: 'a day of the month', whole: 'a whole day of the month', min: [1, 'must be 1 to 28'], max: [28, 'must be 1 to 28'] })
      .optional()
      .meta({
        description:
          'Extension, API version 2026-11-28, monthly and yearly plans only (docs/billing.md#billing-day): the day of the month (1..28, Bogotá) renewals fall on. The first charge is prorated from the payment to that day; not with `trialDays`',
        examples: [1],
      }),
    quantity: quantitySchema.optional().meta({
      description:
        'Extension, API version 2026-11-28 (docs/billing.md#quantity): seats, 1 to 10,000 (default 1). `amount` is then the unit price, and each charge takes unit × quantity',
      examples: [5],
    }),
    iva: ivaSchema.optional().meta({
      description:
        "Extension, API version 2026-11-28 (docs/einvoicing.md#settings): the IVA rate of this plan's electronic invoices when it is not the merchant's: 19, 5, 0 (exempt) or \"excluded\"",
      examples: [5],
    }),
  },
  anObject,
);

type PlanFields = z.infer<typeof planShape>;

/** Fields that go together or not at all: each problem names its field. */
function checkPlan(plan: Partial<PlanFields> & Pick<PlanFields, 'amount' | 'modality'>, ctx: z.RefinementCtx) {
  if (typeof plan.quantity === 'number' && typeof plan.amount === 'number' && plan.amount <= MAX_AMOUNT && plan.quantity * plan.amount > MAX_AMOUNT)
    ctx.addIssue({ code: 'custom', path: ['quantity'], message: `makes each charge (amount × quantity) more than ${MAX_AMOUNT} cents` });
  if (plan.coupon !== undefined && plan.allowPromotionCodes)
    ctx.addIssue({ code: 'custom', path: ['allowPromotionCodes'], message: 'cannot be true on a link that applies a coupon' });
  if (plan.modality === 'SINGLE' && plan.interval !== undefined)
    ctx.addIssue({ code: 'custom', path: ['interval'], message: 'is only for RECURRING plans (a SINGLE plan is charged once)' });
  if (plan.modality === 'SINGLE' && plan.usage !== undefined)
    ctx.addIssue({ code: 'custom', path: ['usage'], message: 'is only for RECURRING plans (usage is billed with each renewal)' });
  if (plan.modality === 'SINGLE' && plan.minimumPeriods !== undefined)
    ctx.addIssue({ code: 'custom', path: ['minimumPeriods'], message: 'is only for RECURRING plans (a SINGLE plan has no periods)' });
  if (plan.billingDay !== undefined) {
    const refused =
      plan.modality === 'SINGLE'
        ? 'is only for RECURRING plans (a SINGLE plan is charged once)'
        : plan.interval?.unit === 'week'
          ? 'is only for monthly and yearly plans (a weekly plan renews every 7 days from its first charge)'
          : plan.trialDays !== undefined
            ? 'cannot be combined with trialDays (the first charge is at the end of the trial)'
            : null;
    if (refused) ctx.addIssue({ code: 'custom', path: ['billingDay'], message: refused });
  }
  if (plan.modality === 'SINGLE' && plan.trialDays !== undefined)
    ctx.addIssue({ code: 'custom', path: ['trialDays'], message: 'is only for RECURRING plans (a SINGLE plan is charged once, when paid)' });
}

const planSchema = planShape.superRefine(checkPlan);

/** What 2026-11-26 reads of a plan: without 2026-11-28's fields. */
const plan20261126 = planShape.omit({ quantity: true, setupFee: true, usage: true, minimumPeriods: true, billingDay: true, iva: true }).superRefine(checkPlan);

export const createLinkBodySchema = z
  .object({ customer: customerSchema, plan: planSchema })
  .meta({ id: 'CreateLinkRequest', description: 'Body of POST /merchants/subscription-link (docs/api.md#create-a-payment-link).' });

export type CreateLinkBody = z.infer<typeof createLinkBodySchema>;

export const createLinkBody20261126 = z
  .object({ customer: customerSchema20261120, plan: plan20261126 })
  .meta({ id: 'CreateLinkRequest', description: createLinkBodySchema.meta()?.description });

export const idempotencyKeySchema = z.string().min(1, 'must be 1 to 255 characters').max(255, 'must be 1 to 255 characters');

export const linkSchema = z
  .object({
    token: z.string().length(10).describe('Checkout token; the secret of the checkout session'),
    url: z.url().describe('Checkout address: {APP_URL}/pay/{token}'),
    expiresAt: z.iso.datetime({ precision: 3 }).describe('ISO 8601 UTC with milliseconds'),
    subscriptionPlanId: z.string().describe('sub_… identifier of the created plan'),
  })
  .meta({ id: 'PaymentLink' });

const epochMs = z.number().int().describe('Epoch milliseconds');

const lastTransactionSchema = z.object({
  subscriptionTransactionId: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  amount: z.number().int(),
  chargeDate: epochMs,
  gatewayTransactionId: z.string().nullable().describe('Processor id: hyphen-separated numeric parts'),
  refundDue: z
    .literal(true)
    .optional()
    .describe(
      'Extension, API version 2026-11-28 (docs/billing.md#refund-due): present while this payment, a PSE or Nequi renewal-link payment approved after the plan was cancelled or paused, is owed back to the customer; gone once marked refunded in the portal',
    ),
});

/** The transaction before 2026-11-28: no refundDue. */
const lastTransaction20261126 = lastTransactionSchema.omit({ refundDue: true });

/** A plan's free trial (docs/billing.md#trials). */
export const trialSchema = z
  .object({
    days: z.number().int().describe('Days of free trial the link gave'),
    endsAt: epochMs.nullable().describe('When the trial ends and the first charge is made; null until the checkout saved the method'),
  })
  .meta({ id: 'PlanTrial', examples: [{ days: 14, endsAt: 1798761600000 }] });

const cancelAtSchema = epochMs
  .optional()
  .describe(
    'Extension, API version 2026-11-28 (docs/billing.md#cancel-at-the-end-of-the-period): present only while a cancellation at the end of the period is scheduled; the plan is cancelled then, with no further charge',
  );

const quantityReplySchema = z
  .number()
  .int()
  .optional()
  .describe('Extension, API version 2026-11-28 (docs/billing.md#quantity): seats, present when not 1; `amount` is then the unit price');

export const planStatusSchema = z
  .object({
    subscriptionPlanId: z.string(),
    externalReference: z.string(),
    plan: z.object({
      status: z.enum(PLAN_STATUSES),
      amount: z.number().int().describe('Cents of COP'),
      currency: z.literal('COP'),
      description: z.string(),
      nextChargeDate: epochMs.nullable().describe('Null while no charge is scheduled (PAUSED, CANCELLED, COMPLETED)'),
      interval: intervalSchema
        .nullable()
        .optional()
        .describe('Extension (docs/billing.md#intervals): present only for a plan charged other than every month'),
      trial: trialSchema.optional().describe('Extension (docs/billing.md#trials): present only for a plan created with a free trial'),
      cancelAt: cancelAtSchema,
      quantity: quantityReplySchema,
    }),
    lastTransaction: lastTransactionSchema.optional().describe('Absent before the first payment'),
  })
  .meta({ id: 'PlanStatus' });

export const planRecordSchema = z
  .object({
    id: z.string(),
    merchantId: z.string(),
    userId: z.string().describe('cus_… customer id, one per merchant and e-mail'),
    externalReference: z.string(),
    description: z.string(),
    amount: z.number().int(),
    currency: z.literal('COP'),
    modality: z.enum(MODALITIES),
    interval: z
      .union([z.literal('MONTHLY'), intervalSchema])
      .nullable()
      .describe('null for SINGLE; `MONTHLY` for a plan charged every month; `{ unit, count }` for any other interval (extension, docs/billing.md#intervals)'),
    status: z.enum(PLAN_STATUSES),
    nextChargeDate: epochMs.nullable(),
    trial: trialSchema.optional().describe('Extension (docs/billing.md#trials): present only for a plan created with a free trial'),
    cancelAt: cancelAtSchema,
    quantity: quantityReplySchema,
    setupFee: z.number().int().optional().describe('Extension, API version 2026-11-28 (docs/billing.md#setup-fee): the setup fee the first payment carries, present when the link set one'),
    usage: z
      .object({ unitAmount: z.number().int(), includedUnits: z.number().int() })
      .optional()
      .describe('Extension, API version 2026-11-28 (docs/billing.md#metered-usage): how usage is billed, present for a metered plan'),
    minimumPeriods: z
      .number()
      .int()
      .optional()
      .describe('Extension, API version 2026-11-28 (docs/billing.md#minimum-term): the periods the plan commits to, present when the link set them'),
    minimumTermEndsAt: epochMs
      .optional()
      .describe('Extension, API version 2026-11-28 (docs/billing.md#minimum-term): when the minimum term ends, present once the first period is paid; a cancel before then takes effect then'),
    resumesAt: z.iso
      .datetime({ precision: 3 })
      .optional()
      .describe('Extension, API version 2026-11-28 (docs/billing.md#pause-until-a-date): when a paused plan resumes on its own, present while one is set'),
    billingDay: z
      .number()
      .int()
      .optional()
      .describe('Extension, API version 2026-11-28 (docs/billing.md#billing-day): the day of the month renewals fall on, present when the link set one'),
    iva: z
      .union([z.literal(19), z.literal(5), z.literal(0), z.literal('excluded')])
      .optional()
      .describe("Extension, API version 2026-11-28 (docs/einvoicing.md#settings): the IVA rate of the plan's invoices, present when the link set one"),
    renewalUrl: z
      .string()
      .optional()
      .describe('Only while a renewal link is open (extension, docs/billing.md#renewal-links): the link that pays the period due, to send the customer'),
    createdAt: z.iso.datetime({ precision: 3 }),
    updatedAt: z.iso.datetime({ precision: 3 }),
    customer: z.object({
      phone: z.string(),
      email: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      idType: z.enum(ID_TYPES).nullable(),
      idNumber: z.string().nullable(),
    }),
  })
  .meta({ id: 'SubscriptionPlan' });

export type PaymentLink = z.infer<typeof linkSchema>;
export type PlanStatusView = z.infer<typeof planStatusSchema>;
export type PlanRecordView = z.infer<typeof planRecordSchema>;

/** Pause and resume take no body: nothing, or `{}` (docs/billing.md). */
export const emptyBodySchema = z.object({}).meta({ id: 'EmptyRequest', description: 'No fields; the body may be left out.' });

const ISO_DAY_OR_TIME = 'must be an ISO 8601 date or date and time, such as 2027-01-15';

/** POST …/pause from 2026-11-28 (docs/billing.md#pause-until-a-date): optionally, when the plan resumes on its own. */
export const pausePlanBodySchema = z
  .object({
    resumesAt: z
      .string({ error: ISO_DAY_OR_TIME })
      .refine((v) => (v.length === 10 ? z.iso.date() : z.iso.datetime({ offset: true })).safeParse(v).success, ISO_DAY_OR_TIME)
      .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00-05:00` : v))
      .optional()
      .meta({
        description:
          'Extension, API version 2026-11-28: when the plan resumes on its own (ISO 8601; a date alone is the start of that day in Bogotá), after now and within a year. It then resumes on its schedule: the next charge is its first billing day after that',
        examples: ['2027-01-15'],
      }),
  })
  .meta({ id: 'PausePlanRequest', description: 'Body of POST /merchants/subscription-plans/{id}/pause; it may be left out.' });

const cancelReasonSchema = z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(500, 'at most 500 characters')
      .optional()
      .meta({ description: 'Why the plan ends, for your records', examples: ['Customer asked to cancel'] });

export const cancelPlanBodySchema = z
  .object({
    reason: cancelReasonSchema,
    at: z
      .enum(['now', 'period_end'], { error: 'must be now or period_end' })
      .optional()
      .describe(
        'Extension, API version 2026-11-28: `now` (default) cancels at once; `period_end` keeps the plan as it is until its next charge date (`cancelAt`), charges nothing more, and cancels it then. Undo it with PATCH `{ "at": null }`',
      ),
  })
  .meta({ id: 'CancelPlanRequest', description: 'Body of POST /merchants/subscription-plans/{id}/cancel; it may be left out.' });

/** The cancel body before 2026-11-28: a reason only (cancelled at once). */
export const cancelPlanBody20261126 = z
  .object({ reason: cancelReasonSchema })
  .meta({ id: 'CancelPlanRequest', description: 'Body of POST /merchants/subscription-plans/{id}/cancel; it may be left out.' });

/** PATCH /merchants/subscription-plans/{id}: a new price (docs/billing.md#price-changes). */
export const priceChangeBodySchema = z
  .object(
    {
      amount: amountSchema.describe('The new amount, cents of COP'),
      description: text(255).optional().describe('A new plan name, applied with the amount'),
      effective: z
        .enum(['next_charge', 'now'], { error: 'must be next_charge or now' })
        .default('next_charge')
        .describe('`next_charge` (default): from the next renewal. `now`: at once, charging the prorated difference of an increase'),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'PriceChangeRequest', description: 'Body of PATCH /merchants/subscription-plans/{id} (extension).' });

/** A price or seats change, as the API's PATCH and the portal's form ask for it. */
export type PriceChangeBody = { amount?: number; quantity?: number; description?: string; effective: 'next_charge' | 'now' };

/**
 * PATCH /merchants/subscription-plans/{id} from 2026-11-28: a price change as before, or
 * `{ "at": null }`, which undoes a cancellation at the end of the period (sent alone).
 */
export const planChangeBodySchema = z
  .object(
    {
      amount: priceChangeBodySchema.shape.amount.optional(),
      quantity: quantitySchema
        .optional()
        .describe('Extension, API version 2026-11-28 (docs/billing.md#quantity): new seats, charged as a price change is (`effective`)'),
      description: priceChangeBodySchema.shape.description,
      effective: priceChangeBodySchema.shape.effective,
      at: z
        .null({ error: 'must be null (it undoes a cancellation at the end of the period)' })
        .optional()
        .describe('Extension, API version 2026-11-28: `null` undoes a cancellation at the end of the period (docs/billing.md#cancel-at-the-end-of-the-period); sent alone'),
    },
    { error: 'must be an object' },
  )
  .superRefine((body, ctx) => {
    const priced = body.amount !== undefined || body.quantity !== undefined || body.description !== undefined;
    if (body.at !== undefined && priced) ctx.addIssue({ code: 'custom', path: ['at'], message: 'must be sent alone (undo the cancellation, then change the price)' });
    if (body.at === undefined && body.amount === undefined && body.quantity === undefined)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required (or quantity)' });
  })
  .meta({ id: 'PriceChangeRequest', description: 'Body of PATCH /merchants/subscription-plans/{id} (extension): a price change, or `{ "at": null }`.' });

export type PlanChangeBody = z.infer<typeof planChangeBodySchema>;

// What version 2026-11-20 sees (docs/api.md#versioning): its own fields only, newer states shown
// as the one they grew from.

const { externalReference, description, amount, modality } = planShape.shape;

export const createLinkBody20261120 = z
  .object({ customer: customerSchema20261120, plan: z.object({ externalReference, description, amount, modality }, anObject) })
  .meta({ id: 'CreateLinkRequest', description: createLinkBodySchema.meta()?.description });

const statusPlan = planStatusSchema.shape.plan.shape;

export const planStatus20261120Schema = z
  .object({
    subscriptionPlanId: planStatusSchema.shape.subscriptionPlanId,
    externalReference: planStatusSchema.shape.externalReference,
    plan: z.object({
      status: planStatus20261120,
      amount: statusPlan.amount,
      currency: statusPlan.currency,
      description: statusPlan.description,
      nextChargeDate: statusPlan.nextChargeDate,
    }),
    lastTransaction: lastTransaction20261126.optional().describe('Absent before the first payment'),
  })
  .meta({ id: 'PlanStatus' });

const record = planRecordSchema.shape;

export const planRecord20261120Schema = z
  .object({
    id: record.id,
    merchantId: record.merchantId,
    userId: record.userId,
    externalReference: record.externalReference,
    description: record.description,
    amount: record.amount,
    currency: record.currency,
    modality: record.modality,
    // A plan made with a later version's interval (a request naming that version) keeps showing it.
    interval: record.interval,
    status: planStatus20261120,
    nextChargeDate: record.nextChargeDate,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    customer: record.customer,
  })
  .meta({ id: 'SubscriptionPlan' });

// What 2026-11-26 sees: 2026-11-28's fields (docs/billing.md, part two) left out.

export const planRecord20261126Schema = planRecordSchema.omit({ cancelAt: true, quantity: true, setupFee: true, usage: true, minimumPeriods: true, minimumTermEndsAt: true, billingDay: true, resumesAt: true, iva: true }).meta({ id: 'SubscriptionPlan' });

export const planStatus20261126Schema = planStatusSchema
  .extend({
    plan: planStatusSchema.shape.plan.omit({ cancelAt: true, quantity: true }),
    lastTransaction: lastTransaction20261126.optional().describe('Absent before the first payment'),
  })
  .meta({ id: 'PlanStatus' });

/** A version that predates quantities sees `amount` as what each charge takes: unit × quantity (docs/billing.md#quantity). */
const seatsTimesUnit = (reply: unknown) => {
  if (typeof reply !== 'object' || reply === null || !('amount' in reply) || typeof reply.amount !== 'number') return reply;
  const quantity = 'quantity' in reply && typeof reply.quantity === 'number' ? reply.quantity : 1;
  return { ...reply, amount: reply.amount * quantity };
};

const recordBefore = (shape: z.ZodType) => z.preprocess(seatsTimesUnit, shape);
const statusBefore = (shape: z.ZodType) =>
  z.preprocess((reply) => (typeof reply === 'object' && reply !== null && 'plan' in reply ? { ...reply, plan: seatsTimesUnit(reply.plan) } : reply), shape);

/** The plan record's older shapes, for every operation that replies with one. */
export const PLAN_RECORD_BEFORE = { '2026-11-20': recordBefore(planRecord20261120Schema), '2026-11-26': recordBefore(planRecord20261126Schema) };

/** The plan status reply's older shapes. */
export const PLAN_STATUS_BEFORE = { '2026-11-20': statusBefore(planStatus20261120Schema), '2026-11-26': statusBefore(planStatus20261126Schema) };

/** POST /merchants/subscription-plans/{id}/usage (docs/billing.md#metered-usage). */
export const usageReportBodySchema = z
  .object(
    {
      quantity: wholeNumber({ is: 'a whole number', whole: 'a whole number', min: [1, 'must be at least 1'], max: [1_000_000_000, 'must be at most 1000000000'] }).describe(
        'Units used',
      ),
      timestamp: z.iso
        .datetime({ offset: true, error: 'must be an ISO 8601 date and time, such as 2026-11-28T15:04:05Z' })
        .optional()
        .describe('When the units were used (ISO 8601); now when left out. The period is the one open when the report arrives'),
      idempotencyKey: z
        .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
        .min(1, 'must be 1 to 255 characters')
        .max(255, 'must be 1 to 255 characters')
        .describe('Your key for this report: the same key again counts once'),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'UsageReportRequest', description: 'Body of POST /merchants/subscription-plans/{id}/usage (extension, API version 2026-11-28).' });

export type UsageReportBody = z.infer<typeof usageReportBodySchema>;

export const usageReportSchema = z
  .object({
    id: z.string().describe('usg_… identifier'),
    subscriptionPlanId: z.string(),
    quantity: z.number().int(),
    timestamp: z.string().describe('When the units were used, ISO 8601'),
    idempotencyKey: z.string(),
    createdAt: z.string().describe('When the report was first recorded, ISO 8601'),
  })
  .meta({ id: 'UsageReport' });

export type UsageReportView = z.infer<typeof usageReportSchema>;

/** The most reports one batch carries (docs/billing.md#many-reports-in-one-request). */
export const MAX_USAGE_BATCH = 100;

/** POST /merchants/usage-reports: many plans' reports, recorded all together or not at all. */
export const usageBatchBodySchema = z
  .object(
    {
      reports: z
        .array(
          usageReportBodySchema.extend({
            subscriptionPlanId: z
              .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
              .regex(new RegExp(idPattern('sub')), 'must be a subscriptionPlanId (sub_…)')
              .describe('The metered plan the units were used on'),
          }),
          { error: (i) => (i.input === undefined ? 'is required' : 'must be an array of reports') },
        )
        .min(1, 'must hold at least 1 report')
        .max(MAX_USAGE_BATCH, `must hold at most ${MAX_USAGE_BATCH} reports`)
        .describe(`1 to ${MAX_USAGE_BATCH} reports, of one or many plans`),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'UsageBatchRequest', description: 'Body of POST /merchants/usage-reports (extension, API version 2026-11-28).' });

export type UsageBatchBody = z.infer<typeof usageBatchBodySchema>;

export const usageBatchSchema = z
  .object({ data: z.array(usageReportSchema).describe('Each report as recorded, in the order sent; a repeated key answers with its first report') })
  .meta({ id: 'UsageBatch' });
