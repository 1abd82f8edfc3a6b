import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { API_VERSIONS, LATEST_API_VERSION } from '../lib/api-versions';
import { INTERVAL_UNITS } from '../lib/calendar/interval';
import { CHARGE_EVENT_TYPES, INVOICE_KINDS, INVOICE_STATUSES, WEBHOOK_EVENT_TYPES } from '../lib/webhooks/payload';

// Money is an integer count of COP cents; the largest amount (99,999,999,999) needs bigint, and
// stays below 2^53, so it is read as a JS number. Times are timestamptz.

/** A point in time, read as a Date. */
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => at('created_at').notNull().defaultNow();
const updatedAt = () => at('updated_at').notNull().defaultNow();
const cents = (name: string) => bigint(name, { mode: 'number' });
/** The owning merchant and plan: every row below them names them. */
const merchantRef = () =>
  text('merchant_id')
    .notNull()
    .references(() => merchants.id);
const planRef = () =>
  text('plan_id')
    .notNull()
    .references(() => subscriptionPlans.id);

export const MERCHANT_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
/** TRIALING: a plan with a free trial whose method is saved, before its first charge (docs/billing.md#trials). */
export const PLAN_STATUSES = ['PENDING_ACTIVATION', 'TRIALING', 'ACTIVE', 'PAUSED', 'CANCELLED', 'COMPLETED'] as const;
export const OPEN_PLAN_STATUSES = ['PENDING_ACTIVATION', 'TRIALING', 'ACTIVE', 'PAUSED'] as const;
/** The longest free trial a link may give, in days (docs/billing.md#trials). */
export const MAX_TRIAL_DAYS = 365;
export const MODALITIES = ['RECURRING', 'SINGLE'] as const;
export const TRANSACTION_STATUSES = ['PENDING', 'APPROVED', 'DECLINED', 'VOIDED', 'ERROR'] as const;
/** PRORATION: the difference of a price increase applied at once (docs/billing.md#price-changes). */
export const TRANSACTION_KINDS = ['INITIAL', 'RENEWAL', 'PRORATION', 'SETUP_FEE'] as const;
export const ID_TYPES = ['CC', 'CE', 'NIT', 'PP'] as const;
export const PROCESSOR_TYPES = ['sandbox', 'wompi'] as const;
export const PAYMENT_METHOD_TYPES = ['CARD', 'NEQUI', 'PSE'] as const;
/**
 * How a RECURRING plan's renewals are collected (docs/billing.md#renewal-links): AUTOMATIC charges
 * the saved method; LINK e-mails the customer a renewal link for each period (a plan paid by PSE,
 * or one on the ladder after its last retry failed).
 */
export const RENEWAL_COLLECTIONS = ['AUTOMATIC', 'LINK'] as const;
/**
 * A renewal link's life (docs/billing.md#renewal-links): OPEN until paid (PAID), until grace ran
 * out and the plan was cancelled for non-payment (EXPIRED), until the plan was cancelled otherwise
 * (CANCELLED), or until its period no longer needed it (SUPERSEDED: the plan was paused).
 */
export const RENEWAL_LINK_STATUSES = ['OPEN', 'PAID', 'EXPIRED', 'CANCELLED', 'SUPERSEDED'] as const;
/** Why a renewal link was issued: a plan collected by link, or the ladder after the last failed retry. */
export const RENEWAL_LINK_SOURCES = ['reminder', 'ladder'] as const;
/** Bounds of the merchant's renewal settings (docs/billing.md#renewal-links). */
export const REMINDER_DAYS = { min: 1, max: 10, default: 3 } as const;
export const GRACE_DAYS = { min: 0, max: 15, default: 5 } as const;
/**
 * How long a coupon's discount lasts on a plan (docs/billing.md#coupons): its first charge, its
 * first `duration_in_periods` charges, or every charge.
 */
export const COUPON_DURATIONS = ['once', 'repeating', 'forever'] as const;
/** Bounds of a coupon (docs/billing.md#coupons). */
export const COUPON_LIMITS = { percentOff: { min: 1, max: 99 }, periods: { min: 1, max: 36 } } as const;
/** The languages the customer may read us in (lib/i18n/locale.ts). */
export const CUSTOMER_LANGS = ['es', 'en'] as const;
/** Electronic invoicing (docs/einvoicing.md#issuing): the providers, the IVA rates, the documents and their states. */
export const EINVOICE_PROVIDERS = ['factus', 'alegra'] as const;
export const EINVOICE_IVA_RATES = ['19', '5', '0', 'excluded'] as const;
export { INVOICE_KINDS, INVOICE_STATUSES, type InvoiceStatus } from '../lib/webhooks/payload';

export type PlanStatus = (typeof PLAN_STATUSES)[number];
export type Modality = (typeof MODALITIES)[number];
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type RenewalCollection = (typeof RENEWAL_COLLECTIONS)[number];
export type RenewalLinkStatus = (typeof RENEWAL_LINK_STATUSES)[number];
export type CouponDuration = (typeof COUPON_DURATIONS)[number];

const inListText = (column: string, values: readonly string[]) => `${column} in (${values.map((v) => `'${v}'`).join(', ')})`;
const inList = (column: string, values: readonly string[]) => sql.raw(inListText(column, values));

export const merchants = pgTable(
  'merchants',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    status: text('status', { enum: MERCHANT_STATUSES }).notNull().default('ACTIVE'),
    webhookUrl: text('webhook_url'),
    // Kept readable: every delivery is signed with it (HMAC needs the key itself).
    webhookSecret: text('webhook_secret').notNull(),
    /** During a roll (docs/webhooks.md#rolling-the-secret), the secret being replaced: it still signs X-Webhook-Signature until `webhookSecretRolledUntil`. */
    webhookSecretPrevious: text('webhook_secret_previous'),
    webhookSecretRolledUntil: at('webhook_secret_rolled_until'),
    allowedDomains: text('allowed_domains').array().notNull().default(sql`'{}'::text[]`),
    // Which processor charges this merchant's customers (docs/processors.md): the built-in sandbox
    // or the merchant's own Wompi account, whose three secrets are kept encrypted (AES-256-GCM).
    processorType: text('processor_type', { enum: PROCESSOR_TYPES }).notNull().default('sandbox'),
    wompiPublicKey: text('wompi_public_key'),
    wompiSecrets: text('wompi_secrets'),
    // The merchant's NIT, printed on its customers' receipts when set (docs/customers.md#receipts).
    nit: text('nit'),
    // The events this merchant receives (docs/customers.md#lifecycle-events): the four charge
    // events always, lifecycle events only once chosen.
    webhookEventTypes: text('webhook_event_types')
      .array()
      .notNull()
      .default(sql.raw(`'{${CHARGE_EVENT_TYPES.join(',')}}'::text[]`)),
    // The API version its requests and webhooks use when a request names none (docs/api.md#versioning):
    // the newest when the merchant was created; merchants from before versions existed have 2026-11-20.
    apiVersion: text('api_version', { enum: API_VERSIONS }).notNull().default(LATEST_API_VERSION),
    // Opt-in webhook retries (docs/webhooks.md#retries): off, a single attempt as API version 2026-11-20 has it.
    webhookRetries: boolean('webhook_retries').notNull().default(false),
    // Since when every delivery to the URL has failed (null after a success); past 3 days with
    // retries on, the endpoint is disabled: no more deliveries until the merchant re-enables it.
    webhookFailingSince: at('webhook_failing_since'),
    webhookDisabledAt: at('webhook_disabled_at'),
    // Renewal links (docs/billing.md#renewal-links): how many days before a due date the link is
    // e-mailed, how long an unpaid period stays ACTIVE, and whether a failed automatic renewal
    // steps down to a link before cancelling.
    reminderDays: smallint('reminder_days').notNull().default(REMINDER_DAYS.default),
    graceDays: smallint('grace_days').notNull().default(GRACE_DAYS.default),
    renewalLadder: boolean('renewal_ladder').notNull().default(true),
    // Electronic invoicing (docs/einvoicing.md#settings): off while the provider is null. The
    // credentials (and Alegra's resolution) are sealed together; the next consecutives are ours
    // to give when we number (Alegra's invoices within the resolution, every credit note).
    einvoiceProvider: text('einvoice_provider', { enum: EINVOICE_PROVIDERS }),
    einvoiceIva: text('einvoice_iva', { enum: EINVOICE_IVA_RATES }),
    einvoiceSecrets: text('einvoice_secrets'),
    einvoiceNextNumber: bigint('einvoice_next_number', { mode: 'number' }),
    einvoiceNextNoteNumber: bigint('einvoice_next_note_number', { mode: 'number' }).notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [
    check('merchants_status_check', inList('status', MERCHANT_STATUSES)),
    check('merchants_api_version_check', inList('api_version', API_VERSIONS)),
    check('merchants_webhook_retries_check', sql`not webhook_retries or webhook_url is not null`),
    check('merchants_reminder_days_check', sql.raw(`reminder_days between ${REMINDER_DAYS.min} and ${REMINDER_DAYS.max}`)),
    check('merchants_grace_days_check', sql.raw(`grace_days between ${GRACE_DAYS.min} and ${GRACE_DAYS.max}`)),
    check('merchants_processor_type_check', inList('processor_type', PROCESSOR_TYPES)),
    check('merchants_nit_check', sql`nit is null or nit ~ '^[0-9]{6,10}(-[0-9])?$'`),
    check('merchants_wompi_keys_check', sql`processor_type <> 'wompi' or (wompi_public_key is not null and wompi_secrets is not null)`),
    check(
      'merchants_einvoice_check',
      sql.raw(`(einvoice_provider is null and einvoice_iva is null and einvoice_secrets is null) or (${inListText('einvoice_provider', EINVOICE_PROVIDERS)} and ${inListText('einvoice_iva', EINVOICE_IVA_RATES)} and einvoice_secrets is not null)`),
    ),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    // The public api_key (pk_test_...) is the lookup key; only a SHA-256 of the secret is kept.
    key: text('key').primaryKey(),
    merchantId: merchantRef(),
    secretHash: text('secret_hash').notNull(),
    /** A key restricted to reading (docs/api.md#authentication): any other method is a 403. */
    readOnly: boolean('read_only').notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('api_keys_merchant_idx').on(t.merchantId)],
);

/**
 * A merchant's coupons (docs/billing.md#coupons): percent or amount off, for one, N or every charge
 * of a plan. `code` (upper case) is what a customer types on the hosted page; one live coupon per
 * merchant and code. A redemption is counted by a conditional UPDATE when a coupon is applied to a
 * plan, so two customers racing for the last one cannot both have it (the check holds the count).
 * A deleted coupon keeps its row (plans that carry it keep their discount) but is never applied again.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: text('id').primaryKey(),
    merchantId: merchantRef(),
    code: text('code'),
    percentOff: smallint('percent_off'),
    amountOff: cents('amount_off'),
    duration: text('duration', { enum: COUPON_DURATIONS }).notNull(),
    durationInPeriods: smallint('duration_in_periods'),
    maxRedemptions: integer('max_redemptions'),
    timesRedeemed: integer('times_redeemed').notNull().default(0),
    redeemBy: at('redeem_by'),
    deletedAt: at('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('coupons_merchant_code_key').on(t.merchantId, t.code).where(sql`deleted_at is null and code is not null`),
    index('coupons_merchant_idx').on(t.merchantId, t.id),
    check('coupons_off_check', sql`(percent_off is null) <> (amount_off is null)`),
    check(
      'coupons_percent_off_check',
      sql.raw(`percent_off is null or percent_off between ${COUPON_LIMITS.percentOff.min} and ${COUPON_LIMITS.percentOff.max}`),
    ),
    check('coupons_amount_off_check', sql`amount_off is null or amount_off between 1 and 99999999999`),
    check('coupons_duration_check', inList('duration', COUPON_DURATIONS)),
    check(
      'coupons_periods_check',
      sql.raw(
        `(duration = 'repeating') = (duration_in_periods is not null) and (duration_in_periods is null or duration_in_periods between ${COUPON_LIMITS.periods.min} and ${COUPON_LIMITS.periods.max})`,
      ),
    ),
    check('coupons_code_check', sql`code is null or code ~ '^[A-Z0-9_-]{3,40}$'`),
    check('coupons_redemptions_check', sql`times_redeemed >= 0 and (max_redemptions is null or (max_redemptions >= 1 and times_redeemed <= max_redemptions))`),
  ],
);

export const customers = pgTable(
  'customers',
  {
    id: text('id').primaryKey(),
    merchantId: merchantRef(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    idType: text('id_type', { enum: ID_TYPES }),
    idNumber: text('id_number'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // One customer per merchant and e-mail (docs/api.md#plan-status), whatever the e-mail's case.
  (t) => [uniqueIndex('customers_merchant_email_key').on(t.merchantId, sql`lower(${t.email})`)],
);

export const subscriptionPlans = pgTable(
  'subscription_plans',
  {
    id: text('id').primaryKey(),
    merchantId: merchantRef(),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id),
    externalReference: text('external_reference').notNull(),
    description: text('description').notNull(),
    amount: cents('amount').notNull(),
    currency: text('currency').notNull().default('COP'),
    modality: text('modality', { enum: MODALITIES }).notNull(),
    // Every `interval_count` weeks, months or years (lib/calendar/interval.ts); null for SINGLE.
    intervalUnit: text('interval_unit', { enum: INTERVAL_UNITS }),
    intervalCount: smallint('interval_count'),
    status: text('status', { enum: PLAN_STATUSES }).notNull().default('PENDING_ACTIVATION'),
    nextChargeDate: at('next_charge_date'),
    // Day of the month renewals fall on (1..31, clamped to short months); set by the first charge
    // of a monthly or yearly plan (weekly plans count days from the due date).
    billingAnchorDay: smallint('billing_anchor_day'),
    // The processor's reusable token from the first payment, for renewals; never a card number.
    paymentMethodToken: text('payment_method_token'),
    checkoutToken: text('checkout_token').notNull(),
    tokenExpiresAt: at('token_expires_at').notNull(),
    // The customer as this link gave it (the checkout pre-fills from it); `customers` holds the latest.
    customerPhone: text('customer_phone').notNull(),
    customerEmail: text('customer_email').notNull(),
    customerFirstName: text('customer_first_name'),
    customerLastName: text('customer_last_name'),
    customerIdType: text('customer_id_type', { enum: ID_TYPES }),
    customerIdNumber: text('customer_id_number'),
    // Who the invoices are made out to (docs/einvoicing.md#the-buyer): null, the final consumer.
    customerTaxIdType: text('customer_tax_id_type', { enum: ID_TYPES }),
    customerTaxIdNumber: text('customer_tax_id_number'),
    customerTaxIdDv: smallint('customer_tax_id_dv'),
    customerLegalName: text('customer_legal_name'),
    cancelReason: text('cancel_reason'),
    // The customer's language (docs/customers.md#e-mails): the checkout page's when they first
    // paid, or the manage page's they chose since; their e-mails are written in it.
    customerLang: text('customer_lang', { enum: CUSTOMER_LANGS }).notNull().default('es'),
    // Failed renewal attempts of the period being collected (0..3). While it is above 0,
    // nextChargeDate is the retry time; the period's due date is that minus the retry offset
    // (lib/billing/renewals.ts), so the period needs no column of its own.
    renewalFailures: smallint('renewal_failures').notNull().default(0),
    // The renewal sweep that has taken this plan's due attempt, and until when (lib/billing/sweep.ts):
    // instances sharing a renewal day claim plans in batches and skip each other's.
    sweepClaim: text('sweep_claim'),
    sweepLeaseUntil: at('sweep_lease_until'),
    // AUTOMATIC: renewals charge paymentMethodToken; LINK: the customer pays a renewal link.
    renewalCollection: text('renewal_collection', { enum: RENEWAL_COLLECTIONS }).notNull().default('AUTOMATIC'),
    // A price change not applied yet (docs/billing.md#price-changes): the amount (and description)
    // the plan takes from the renewal of the period due at or after `scheduledFrom`, or, with a
    // prorated charge in flight, once that charge is approved.
    scheduledAmount: cents('scheduled_amount'),
    scheduledDescription: text('scheduled_description'),
    scheduledFrom: at('scheduled_from'),
    // The coupon applied to this plan (docs/billing.md#coupons) and its terms as applied, so every
    // charge reads them from the plan it locks: percent or cents off, for how many approved
    // charges (null: all of them), and how many approved charges have had it so far.
    couponId: text('coupon_id').references((): AnyPgColumn => coupons.id),
    discountPercent: smallint('discount_percent'),
    discountAmount: cents('discount_amount'),
    discountPeriods: smallint('discount_periods'),
    discountPeriodsUsed: smallint('discount_periods_used').notNull().default(0),
    // The hosted page lets the customer type a coupon's code (docs/billing.md#coupons).
    allowPromotionCodes: boolean('allow_promotion_codes').notNull().default(false),
    // A free trial (docs/billing.md#trials): its length as the link gave it; when it ends, set once
    // the checkout saved the method (the plan TRIALING, nextChargeDate the same instant); and when
    // the notice of its end is due (3 days before), cleared once sent.
    trialDays: smallint('trial_days'),
    trialEndsAt: at('trial_ends_at'),
    trialNoticeAt: at('trial_notice_at'),
    // Cancel at the end of the period (docs/billing.md#cancel-at-the-end-of-the-period): the plan
    // stays as it is until then, is never charged from then, and the sweep cancels it then.
    cancelAt: at('cancel_at'),
    // Seats (docs/billing.md#quantity): `amount` is the unit price, a charge takes unit × quantity;
    // a change waits in scheduled_quantity beside scheduled_amount.
    quantity: integer('quantity').notNull().default(1),
    scheduledQuantity: integer('scheduled_quantity'),
    // Charged once with the first payment, or at a trial's start (docs/billing.md#setup-fee).
    setupFee: cents('setup_fee'),
    // Metered usage (docs/billing.md#metered-usage): cents per billable unit, and units included free each period.
    usageUnitAmount: cents('usage_unit_amount'),
    usageIncludedUnits: bigint('usage_included_units', { mode: 'number' }),
    // Minimum term (docs/billing.md#minimum-term): periods committed to, and when they end (set once the first is paid).
    minimumPeriods: smallint('minimum_periods'),
    termEndsAt: at('term_ends_at'),
    // Billing day (docs/billing.md#billing-day): renewals fall on it, the first charge is prorated to it.
    billingDay: smallint('billing_day'),
    // Pause until a date (docs/billing.md#pause-until-a-date): the sweep resumes the paused plan then.
    resumesAt: at('resumes_at'),
    // The IVA rate of this plan's invoices when it is not the merchant's (docs/einvoicing.md#settings).
    iva: text('iva', { enum: EINVOICE_IVA_RATES }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscription_plans_checkout_token_key').on(t.checkoutToken),
    // docs/api.md#create-a-payment-link: one open plan per merchant and externalReference, enforced here, not by a read.
    uniqueIndex('subscription_plans_open_reference_key')
      .on(t.merchantId, t.externalReference)
      .where(inList('status', OPEN_PLAN_STATUSES)),
    index('subscription_plans_merchant_idx').on(t.merchantId, t.id),
    // Renewal sweeps look for ACTIVE plans whose next charge is due; those collected by link are
    // not charged (docs/billing.md#renewal-links).
    // A trial's end is charged as a renewal is (docs/billing.md#trials).
    index('subscription_plans_due_idx')
      .on(t.nextChargeDate)
      .where(sql`status in ('ACTIVE', 'TRIALING') and renewal_collection = 'AUTOMATIC'`),
    // Trials whose end is to be announced (docs/billing.md#trials).
    // A sweep's own claims, given back when it ends (lib/billing/sweep.ts).
    index('subscription_plans_sweep_claim_idx').on(t.sweepClaim).where(sql`sweep_claim is not null`),
    index('subscription_plans_trial_notice_idx').on(t.trialNoticeAt).where(sql`status = 'TRIALING' and trial_notice_at is not null`),
    check('subscription_plans_setup_fee_check', sql`setup_fee is null or setup_fee between 100 and 99999999999`),
    check('subscription_plans_minimum_periods_check', sql`minimum_periods is null or (modality = 'RECURRING' and minimum_periods between 2 and 36)`),
    check('subscription_plans_iva_check', sql`iva is null or ${inList('iva', EINVOICE_IVA_RATES)}`),
    check('subscription_plans_billing_day_check', sql`billing_day is null or (interval_unit in ('month', 'year') and billing_day between 1 and 28)`),
    check('subscription_plans_quantity_check', sql`quantity between 1 and 10000 and (scheduled_quantity is null or scheduled_quantity between 1 and 10000)`),
    // Plans whose cancellation at the end of the period is due (lib/plans/cancel-at.ts).
    index('subscription_plans_cancel_at_idx').on(t.cancelAt).where(sql`cancel_at is not null and status in ('ACTIVE', 'TRIALING', 'PAUSED')`),
    index('subscription_plans_resumes_at_idx').on(t.resumesAt).where(sql`resumes_at is not null and status = 'PAUSED'`),
    index('subscription_plans_link_due_idx').on(t.nextChargeDate).where(sql`status = 'ACTIVE' and renewal_collection = 'LINK'`),
    // The portal (docs/portal.md): search by externalReference, and the Overview's renewal lists.
    index('subscription_plans_merchant_reference_idx').on(t.merchantId, t.externalReference),
    index('subscription_plans_customer_idx').on(t.customerId, t.id),
    index('subscription_plans_merchant_upcoming_idx').on(t.merchantId, t.nextChargeDate).where(sql`status = 'ACTIVE'`),
    index('subscription_plans_merchant_failing_idx')
      .on(t.merchantId, t.nextChargeDate)
      .where(sql`status = 'ACTIVE' and renewal_failures > 0`),
    // The Overview's plans made and cancelled this month.
    index('subscription_plans_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('subscription_plans_merchant_cancelled_idx').on(t.merchantId, t.updatedAt).where(sql`status = 'CANCELLED'`),
    check('subscription_plans_amount_check', sql`amount between 100 and 99999999999`),
    check(
      'subscription_plans_scheduled_check',
      sql`(scheduled_amount is null and scheduled_from is null and scheduled_description is null) or (scheduled_amount between 100 and 99999999999 and scheduled_from is not null)`,
    ),
    check('subscription_plans_status_check', inList('status', PLAN_STATUSES)),
    check('subscription_plans_modality_check', inList('modality', MODALITIES)),
    check('subscription_plans_renewal_failures_check', sql`renewal_failures between 0 and 3`),
    check('subscription_plans_customer_lang_check', inList('customer_lang', CUSTOMER_LANGS)),
    // docs/billing.md#intervals: RECURRING plans have one, SINGLE plans none; counts in range per unit.
    check(
      'subscription_plans_interval_check',
      sql`(modality = 'SINGLE' and interval_unit is null and interval_count is null) or (modality = 'RECURRING' and (
        (interval_unit = 'week' and interval_count between 1 and 52) or
        (interval_unit = 'month' and interval_count between 1 and 12) or
        (interval_unit = 'year' and interval_count between 1 and 3)))`,
    ),
    check('subscription_plans_renewal_collection_check', inList('renewal_collection', RENEWAL_COLLECTIONS)),
    check(
      'subscription_plans_discount_check',
      sql`(coupon_id is null and discount_percent is null and discount_amount is null and discount_periods is null) or (coupon_id is not null and (discount_percent is null) <> (discount_amount is null))`,
    ),
    check(
      'subscription_plans_trial_check',
      sql.raw(`trial_days is null or (modality = 'RECURRING' and trial_days between 1 and ${MAX_TRIAL_DAYS})`),
    ),
  ],
);

export const transactions = pgTable(
  'transactions',
  {
    id: text('id').primaryKey(),
    planId: planRef(),
    merchantId: merchantRef(),
    kind: text('kind', { enum: TRANSACTION_KINDS }).notNull(),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull().default('PENDING'),
    amount: cents('amount').notNull(),
    currency: text('currency').notNull().default('COP'),
    chargeDate: at('charge_date').notNull().defaultNow(),
    gatewayTransactionId: text('gateway_transaction_id'),
    // Which saved card was charged (the processor's token); never the card number.
    paymentMethodToken: text('payment_method_token'),
    // CARD, NEQUI or PSE: only a card charge can be voided.
    paymentMethodType: text('payment_method_type', { enum: PAYMENT_METHOD_TYPES }).notNull().default('CARD'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    // The start of the period a charge pays for (its due date; a first payment's is its charge
    // date), for its receipt (docs/customers.md#receipts). Null for charges recorded before it.
    periodStart: at('period_start'),
    // Cents taken off the plan's list price by a coupon; `amount` is what was charged.
    discount: cents('discount').notNull().default(0),
    // The renewal link this RENEWAL transaction pays (docs/billing.md#renewal-links); null for the rest.
    renewalLinkId: text('renewal_link_id').references((): AnyPgColumn => renewalLinks.id),
    // What the fixed part charged, for the receipt's lines (lib/receipts/lines.ts): seats and
    // unit price; null for a proration and for charges recorded before quantities.
    quantity: integer('quantity'),
    unitAmount: cents('unit_amount'),
    setupFee: cents('setup_fee').notNull().default(0),
    // The period's reported units this charge billed, and what they cost (docs/billing.md#metered-usage).
    usageUnits: bigint('usage_units', { mode: 'number' }),
    usageAmount: cents('usage_amount').notNull().default(0),
    // A late payment that could not be voided (docs/billing.md#refund-due): owed back to the
    // customer from refund_due_at until the merchant marks it refunded (refunded_at).
    refundDueAt: at('refund_due_at'),
    refundedAt: at('refunded_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('transactions_plan_idx').on(t.planId, t.id),
    // The portal's Transactions list, newest first.
    index('transactions_merchant_idx').on(t.merchantId, t.id),
    // docs/states.md: at most one PENDING transaction per plan, and a checkout token (the plan's
    // INITIAL payment) approves at most once, whatever the concurrency.
    uniqueIndex('transactions_one_pending_per_plan').on(t.planId).where(sql`status = 'PENDING'`),
    uniqueIndex('transactions_one_initial_approval')
      .on(t.planId)
      .where(sql`kind = 'INITIAL' and status in ('APPROVED', 'VOIDED')`),
    // A renewal link is paid at most once, whatever the concurrency (docs/billing.md#renewal-links).
    uniqueIndex('transactions_one_renewal_link_approval')
      .on(t.renewalLinkId)
      .where(sql`renewal_link_id is not null and status in ('APPROVED', 'VOIDED')`),
    check('transactions_status_check', inList('status', TRANSACTION_STATUSES)),
    check('transactions_kind_check', inList('kind', TRANSACTION_KINDS)),
    check('transactions_payment_method_type_check', inList('payment_method_type', PAYMENT_METHOD_TYPES)),
    check('transactions_last4_check', sql`card_last4 is null or card_last4 ~ '^[0-9]{4}$'`),
    check('transactions_discount_check', sql`discount >= 0`),
    check('transactions_refunded_check', sql`refunded_at is null or refund_due_at is not null`),
    // The portal's refunds to make, per merchant.
    index('transactions_refund_due_idx').on(t.merchantId, t.id).where(sql`refund_due_at is not null and refunded_at is null`),
  ],
);

/**
 * A Wompi Nequi subscription's first payment waiting for the payer to approve the account in the
 * Nequi app (docs/processors.md#nequi-subscriptions): its PENDING transaction, the Nequi token and
 * the single-use acceptance pair the payer's page fetched for this attempt, kept until the token is
 * decided (by Wompi's `nequi_token.updated` event, a page poll or the settler). Whoever deletes the
 * row goes on with the payment, so it is made once.
 */
export const wompiNequiWaits = pgTable('wompi_nequi_waits', {
  transactionId: text('transaction_id')
    .primaryKey()
    .references(() => transactions.id, { onDelete: 'cascade' }),
  merchantId: merchantRef(),
  nequiToken: text('nequi_token').notNull().unique(),
  acceptanceToken: text('acceptance_token').notNull(),
  personalDataToken: text('personal_data_token').notNull(),
  createdAt: createdAt(),
});

/**
 * Renewal links (docs/billing.md#renewal-links): a checkout token for exactly one period of a plan,
 * its amount and its expiry at the end of that period's grace. One per period (a unique index), at
 * most one OPEN per plan; paid at most once (transactions_one_renewal_link_approval). The token is
 * kept readable, like a plan's checkout token: the merchant is shown the link again while it is open.
 * `nextStepAt` is when the sweep next acts on an OPEN link (a reminder, or the end of grace);
 * `remindersSent` counts the reminders after the first e-mail.
 */
export const renewalLinks = pgTable(
  'renewal_links',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull(),
    planId: planRef(),
    merchantId: merchantRef(),
    /** The due date of the period this link pays. */
    period: at('period').notNull(),
    amount: cents('amount').notNull(),
    expiresAt: at('expires_at').notNull(),
    status: text('status', { enum: RENEWAL_LINK_STATUSES }).notNull().default('OPEN'),
    source: text('source', { enum: RENEWAL_LINK_SOURCES }).notNull(),
    remindersSent: smallint('reminders_sent').notNull().default(0),
    nextStepAt: at('next_step_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('renewal_links_token_key').on(t.token),
    uniqueIndex('renewal_links_plan_period_key').on(t.planId, t.period),
    uniqueIndex('renewal_links_one_open_per_plan').on(t.planId).where(sql`status = 'OPEN'`),
    index('renewal_links_next_step_idx').on(t.nextStepAt).where(sql`status = 'OPEN'`),
    index('renewal_links_merchant_open_idx').on(t.merchantId, t.expiresAt).where(sql`status = 'OPEN'`),
    check('renewal_links_status_check', inList('status', RENEWAL_LINK_STATUSES)),
    check('renewal_links_source_check', inList('source', RENEWAL_LINK_SOURCES)),
    check('renewal_links_amount_check', sql`amount between 100 and 99999999999`),
    check('renewal_links_open_step_check', sql`status <> 'OPEN' or next_step_at is not null`),
  ],
);

/**
 * The built-in sandbox processor's own records (docs/processors.md): what it charged under each of
 * our references. A real processor keeps these on its side; the sandbox keeps them here so that,
 * like a real one, it survives our crashes, answers every instance alike, and never charges one
 * reference twice (docs/settlement.md).
 */
export const sandboxCharges = pgTable('sandbox_charges', {
  reference: text('reference').primaryKey(),
  gatewayTransactionId: text('gateway_transaction_id').notNull(),
  createdAt: createdAt(),
});

/**
 * A merchant's test clock (docs/billing.md#test-clocks), development and sandbox deployments
 * only: the time that merchant's plans live at while it exists (lib/clock.ts merchantNow), frozen
 * where it was last moved. `advancingUntil` is the lease of an advance under way, so two advances
 * of one merchant never run at once; `lastAdvance` is what the last one did, for the portal.
 */
export const testClocks = pgTable('test_clocks', {
  merchantId: text('merchant_id')
    .primaryKey()
    .references(() => merchants.id, { onDelete: 'cascade' }),
  frozenAt: at('frozen_at').notNull(),
  advancingUntil: at('advancing_until'),
  lastAdvance: jsonb('last_advance'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    merchantId: merchantRef(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    // The exact bytes of the first reply (jsonb would reorder its keys), replayed as they are.
    responseBody: text('response_body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Electronic invoices (docs/einvoicing.md#issuing): one INVOICE per APPROVED charge, written in the
 * settlement's transaction, and one CREDIT_NOTE per voided charge whose invoice was ISSUED. Issued
 * after commit by whoever claims it (claim, claimedUntil: a lease); what was sent (lines, buyer,
 * period) is kept so every attempt sends the same document.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    merchantId: merchantRef(),
    planId: planRef(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id),
    kind: text('kind', { enum: INVOICE_KINDS }).notNull(),
    // A credit note: the invoice it annuls.
    invoiceId: text('invoice_id').references((): AnyPgColumn => invoices.id),
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('PENDING'),
    provider: text('provider', { enum: EINVOICE_PROVIDERS }).notNull(),
    number: text('number'),
    cufe: text('cufe'),
    qrUrl: text('qr_url'),
    pdfUrl: text('pdf_url'),
    providerId: text('provider_id'),
    // The consecutive we gave it when we number (Alegra), kept across attempts.
    callerNumber: bigint('caller_number', { mode: 'number' }),
    callerPrefix: text('caller_prefix'),
    // Bogotá date it was issued on (a credit note cites it).
    issueDate: text('issue_date'),
    errors: jsonb('errors').$type<{ rule: string; message: string }[]>().notNull().default([]),
    warnings: jsonb('warnings').$type<{ rule: string; message: string }[]>().notNull().default([]),
    lastError: text('last_error'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    // Retryable failures are retried until then (72 h), then FAILED.
    retryUntil: at('retry_until').notNull(),
    claim: text('claim'),
    claimedUntil: at('claimed_until'),
    // The charge was voided while this invoice was not yet known to be issued.
    voidedAt: at('voided_at'),
    total: cents('total').notNull(),
    net: cents('net').notNull(),
    ivaAmount: cents('iva_amount').notNull(),
    ivaRate: text('iva_rate', { enum: EINVOICE_IVA_RATES }).notNull(),
    lines: jsonb('lines').$type<unknown[]>().notNull(),
    buyer: jsonb('buyer').$type<Record<string, unknown>>().notNull(),
    paymentMethod: text('payment_method', { enum: PAYMENT_METHOD_TYPES }).notNull(),
    periodStart: text('period_start'),
    periodEnd: text('period_end'),
    issuedAt: at('issued_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One invoice and at most one credit note per charge, however many settlers race.
    uniqueIndex('invoices_one_per_charge').on(t.transactionId, t.kind),
    index('invoices_merchant_idx').on(t.merchantId, t.id),
    index('invoices_plan_idx').on(t.planId, t.id),
    index('invoices_due_idx').on(t.nextAttemptAt).where(sql`status = 'PENDING'`),
    check('invoices_kind_check', inList('kind', INVOICE_KINDS)),
    check('invoices_status_check', inList('status', INVOICE_STATUSES)),
    check('invoices_note_check', sql`(kind = 'INVOICE') = (invoice_id is null)`),
    check('invoices_amounts_check', sql`total > 0 and net >= 0 and iva_amount >= 0 and net + iva_amount = total`),
  ],
);

export const WEBHOOK_ATTEMPT_TRIGGERS = ['automatic', 'manual'] as const;

/**
 * The outbox (docs/webhooks.md#delivery): one row per final transaction outcome, written in the database
 * transaction that records the outcome. `body` holds the exact bytes that are signed and sent,
 * every time. `dispatchedAt` is set once the automatic delivery has been made (or skipped for
 * want of a URL); until then a sweeper finds the event. `claimedUntil` is the lease of the
 * delivery in progress, so two dispatchers never both send it, and a crashed one's lease lapses.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    merchantId: merchantRef(),
    planId: planRef(),
    // The transaction a charge event reports; null for a lifecycle event (docs/customers.md).
    transactionId: text('transaction_id').references(() => transactions.id),
    type: text('type', { enum: WEBHOOK_EVENT_TYPES }).notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    claimedUntil: at('claimed_until'),
    dispatchedAt: at('dispatched_at'),
    // When the next retry of a failed delivery is due (merchants with retries on); null when none is.
    nextRetryAt: at('next_retry_at'),
    // How many automatic retries were made (the schedule's position; docs/webhooks.md#retries).
    retries: smallint('retries').notNull().default(0),
  },
  (t) => [
    // One event per outcome of a transaction, however many settlers race.
    uniqueIndex('webhook_events_one_per_outcome').on(t.transactionId, t.type),
    index('webhook_events_plan_idx').on(t.merchantId, t.planId, t.id),
    index('webhook_events_merchant_idx').on(t.merchantId, t.id),
    index('webhook_events_undispatched_idx').on(t.createdAt).where(sql`dispatched_at is null`),
    index('webhook_events_retry_due_idx').on(t.nextRetryAt).where(sql`next_retry_at is not null`),
    check('webhook_events_type_check', inList('type', WEBHOOK_EVENT_TYPES)),
  ],
);

/** Every delivery attempt of an event, automatic or a merchant's resend. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    trigger: text('trigger', { enum: WEBHOOK_ATTEMPT_TRIGGERS }).notNull(),
    url: text('url').notNull(),
    attemptedAt: at('attempted_at').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** The receiver's HTTP status; null when no reply came (refused, timeout, TLS, network). */
    statusCode: smallint('status_code'),
    ok: boolean('ok').notNull(),
    error: text('error'),
    /** The first 2 KiB of the reply body. */
    responseExcerpt: text('response_excerpt'),
  },
  (t) => [
    index('webhook_attempts_event_idx').on(t.eventId, t.id),
    check('webhook_attempts_trigger_check', inList('trigger', WEBHOOK_ATTEMPT_TRIGGERS)),
  ],
);

/**
 * Links to a plan's customer page, /manage/<token> (docs/customers.md): only a SHA-256 of the token
 * is kept. A link expires; its use is counted for the merchant's plan page.
 */
export const manageLinks = pgTable(
  'manage_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    planId: planRef(),
    merchantId: merchantRef(),
    /** `merchant` (the API or portal) or the e-mail kind that carried it. */
    source: text('source').notNull(),
    expiresAt: at('expires_at').notNull(),
    uses: integer('uses').notNull().default(0),
    lastUsedAt: at('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('manage_links_plan_idx').on(t.planId)],
);

export const EMAIL_KINDS = [
  'receipt',
  'renewal_failed',
  'cancelled',
  'renewal_due',
  'price_change',
  'webhook_disabled',
  'late_payment',
  'trial_started',
  'trial_ending',
  'account_verification',
  'password_reset',
  'security_notice',
  'member_invitation',
  'einvoice_notice',
  'invoice',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
/** E-mails to the merchant itself, not to a customer: a webhook endpoint disabled, an e-invoicing notice. */
export const MERCHANT_EMAIL_KINDS = ['webhook_disabled', 'einvoice_notice'] as const satisfies readonly EmailKind[];
/** E-mails about the merchant's portal accounts: no plan, and never in the sandbox's e-mail log (their links are credentials). */
export const ACCOUNT_EMAIL_KINDS = ['account_verification', 'password_reset', 'security_notice', 'member_invitation'] as const satisfies readonly EmailKind[];

/**
 * The e-mail outbox (docs/customers.md#e-mails): written, fully rendered, in the database
 * transaction of the change it tells the customer about; sent after commit; a sweeper sends any
 * not yet sent. `sentAt` is set once delivered (or kept for the development page, without SMTP).
 */
export const emails = pgTable(
  'emails',
  {
    id: text('id').primaryKey(),
    merchantId: merchantRef(),
    /** Null for an e-mail about the merchant's accounts (lib/email/account.ts). */
    planId: text('plan_id').references(() => subscriptionPlans.id),
    transactionId: text('transaction_id').references(() => transactions.id),
    kind: text('kind', { enum: EMAIL_KINDS }).notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: createdAt(),
    claimedUntil: at('claimed_until'),
    sentAt: at('sent_at'),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    index('emails_plan_idx').on(t.planId, t.id),
    // The portal's e-mail log of a sandbox merchant (docs/portal.md#pruebas), newest first.
    index('emails_merchant_idx').on(t.merchantId, t.id),
    index('emails_unsent_idx').on(t.createdAt).where(sql`sent_at is null`),
    check('emails_kind_check', inList('kind', EMAIL_KINDS)),
  ],
);

/** Every attempt to send an e-mail, like a webhook attempt: over SMTP, or kept for development. */
export const emailAttempts = pgTable(
  'email_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    emailId: text('email_id')
      .notNull()
      .references(() => emails.id),
    /** `smtp`, or `kept` (no SMTP outside production: shown on /dev/emails, sent nowhere). */
    transport: text('transport').notNull(),
    attemptedAt: at('attempted_at').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    ok: boolean('ok').notNull(),
    error: text('error'),
    /** The SMTP server's reply (its last line). */
    response: text('response'),
  },
  (t) => [index('email_attempts_email_idx').on(t.emailId, t.id)],
);

// Portal accounts (issue 8), in the shape better-auth's drizzle adapter expects: the JS keys are
// its field names (`user`, `session`, `account`, `verification` models). A user belongs to one
// merchant; every portal page and action is scoped to `merchantId`.

/** A member's role in its merchant (lib/portal/roles.ts says what each may do). */
export const MEMBER_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  merchantId: merchantRef(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  role: text('role', { enum: MEMBER_ROLES }).notNull().default('owner'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, () => [check('users_role_check', inList('role', MEMBER_ROLES))]);

/** An invitation to a merchant's portal (lib/portal/team.ts): 7 days, accepted once; only the token's SHA-256 is kept. */
export const memberInvitations = pgTable(
  'member_invitations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: merchantRef(),
    email: text('email').notNull(),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').notNull(),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    createdAt: createdAt(),
  },
  (t) => [index('member_invitations_merchant_idx').on(t.merchantId), check('member_invitations_role_check', inList('role', MEMBER_ROLES))],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    // better-auth keeps the session token itself (the cookie holds it, signed with BETTER_AUTH_SECRET).
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /** When its user last gave the password (and code): sign-in, or a re-authentication (lib/portal/reauth.ts). */
    authenticatedAt: at('authenticated_at').notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** better-auth's twoFactor plugin: the TOTP secret and backup codes, both encrypted by better-auth. */
export const twoFactors = pgTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: at('locked_until'),
  },
  (t) => [uniqueIndex('two_factors_user_idx').on(t.userId)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: at('access_token_expires_at'),
    refreshTokenExpiresAt: at('refresh_token_expires_at'),
    scope: text('scope'),
    /** better-auth's scrypt hash of the password (credential accounts only). */
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('accounts_user_idx').on(t.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

/** Who changed something, as the audit log records it (lib/audit). */
export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'operator', 'system'] as const;

/**
 * The audit log (docs/portal.md#audit-log): one row per change made through the portal, the
 * operator API or a merchant API key, written in the change's own transaction. Append-only: a
 * trigger (migration 0019) refuses UPDATE, and DELETE of any entry younger than its retention
 * (lib/retention.ts). No foreign key: an entry outlives what it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: text('merchant_id').notNull(),
    actorType: text('actor_type', { enum: AUDIT_ACTOR_TYPES }).notNull(),
    /** A user id, an API key (its public part), `operator`, or a job's name. */
    actorId: text('actor_id').notNull(),
    /** What a person reads: the user's e-mail, the key, "Operador". */
    actorLabel: text('actor_label').notNull(),
    ip: text('ip'),
    /** What was done, e.g. `webhook.url_changed`, `api_key.created` (lib/audit/actions.ts). */
    action: text('action').notNull(),
    /** The resource acted on (a key, a plan id, a user's e-mail), when it is not the merchant itself. */
    target: text('target'),
    /** Field by field, `{ from, to }`, secrets masked (lib/audit/record.ts). */
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_merchant_idx').on(t.merchantId, t.id),
    index('audit_log_created_idx').on(t.createdAt),
    check('audit_log_actor_type_check', inList('actor_type', AUDIT_ACTOR_TYPES)),
  ],
);

/**
 * Metered usage reports (docs/billing.md#metered-usage): one per plan and idempotency key, whatever
 * the concurrency (a unique index). `period_due` is null while the report waits for a renewal,
 * and names the period whose renewal billed it once one took it.
 */
export const usageReports = pgTable(
  'usage_reports',
  {
    id: text('id').primaryKey(),
    planId: planRef(),
    merchantId: merchantRef(),
    idempotencyKey: text('idempotency_key').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    reportedAt: at('reported_at').notNull(),
    periodDue: at('period_due'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('usage_reports_plan_key').on(t.planId, t.idempotencyKey),
    index('usage_reports_open_idx').on(t.planId).where(sql`period_due is null`),
    check('usage_reports_quantity_check', sql`quantity > 0`),
  ],
);

/**
 * The portal Overview's running figures as pieces that sum to them (docs/portal.md#overview),
 * written by statement triggers on subscription_plans and transactions
 * (db/migrations/0034_overview_pieces.sql) and folded by compactOverviewPieces.
 */
export const overviewPlanPieces = pgTable(
  'overview_plan_pieces',
  {
    merchantId: text('merchant_id').notNull(),
    activePlans: bigint('active_plans', { mode: 'number' }).notNull(),
    atRisk: bigint('at_risk', { mode: 'number' }).notNull(),
    trialingPlans: bigint('trialing_plans', { mode: 'number' }).notNull(),
    mrr: numeric('mrr').notNull(),
    trialMrr: numeric('trial_mrr').notNull(),
    folded: boolean('folded').notNull().default(false),
  },
  (t) => [index('overview_plan_pieces_merchant_idx').on(t.merchantId), index('overview_plan_pieces_unfolded_idx').on(t.merchantId).where(sql`not folded`)],
);

export const overviewDayPieces = pgTable(
  'overview_day_pieces',
  {
    merchantId: text('merchant_id').notNull(),
    day: date('day').notNull(),
    revenue: bigint('revenue', { mode: 'number' }).notNull(),
    approved: bigint('approved', { mode: 'number' }).notNull(),
    failed: bigint('failed', { mode: 'number' }).notNull(),
    folded: boolean('folded').notNull().default(false),
  },
  (t) => [
    index('overview_day_pieces_merchant_day_idx').on(t.merchantId, t.day),
    index('overview_day_pieces_unfolded_idx').on(t.merchantId, t.day).where(sql`not folded`),
  ],
);
