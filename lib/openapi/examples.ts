import type { CouponView } from '@/lib/coupons/schemas';
import type { z } from 'zod';
import type { CheckoutSessionView } from '@/lib/checkout/session';
import type { CreatedMerchant, merchantView } from '@/lib/merchants/merchants';
import type { createLinkBodySchema, PaymentLink, PlanRecordView, PlanStatusView } from '@/lib/plans/schemas';
import type { SweepSummary } from '@/lib/billing/schemas';
import type { VoidedView } from '@/lib/settlement/schemas';
import type { LifecyclePayload, WebhookPayload } from '@/lib/webhooks/payload';

// One Colombian customer's story, told in every example of the document: a monthly plan of
// $1.500 COP (150000 cents) created at 15:04 UTC, paid two minutes later. The test parses each
// example with the schema the handlers use, so an example cannot drift from the API.

export const IDS = {
  plan: 'sub_0Sq1mZ7kQx9eVb2LrT4nWy8c',
  merchant: 'mch_0Sq1a2B3c4D5e6F7g8H9i0Jk',
  customer: 'cus_0Sq1mZ6pR2sT4uV6wX8yZ0aB',
  transaction: 'txn_0Sq1nA1bC3dE5fG7hJ9kL2mN',
  event: 'evt_0Sq1nB4cD6eF8gH0iJ2kL4mN',
  gatewayTransaction: '48213-1795273601512-00917',
  token: 'aB3dE5fG7h',
  coupon: 'cpn_0Sq1mY2aB4cD6eF8gH0iJ2kL',
  invoice: 'inv_0Sq1nC5dE7fG9hJ1kL3mN5pQ',
} as const;

const CREATED_AT = '2026-11-21T15:04:05.123Z';
const PAID_AT = Date.parse('2026-11-21T15:06:41.512Z');
const NEXT_CHARGE = Date.parse('2026-12-21T15:06:41.512Z');

type CreateLinkInput = z.input<typeof createLinkBodySchema>;

export const createLinkExamples = {
  recurring: {
    summary: 'Monthly plan of $1.500 COP',
    value: {
      customer: { phone: '+573001234567', email: 'ana.gomez@example.com', firstName: 'Ana', lastName: 'Gómez' },
      plan: { externalReference: 'order-1042', description: 'Plan Premium mensual', amount: 150000, modality: 'RECURRING' },
    },
  },
  single: {
    summary: 'One payment, customer identified by document',
    value: {
      customer: { phone: '+573104567890', email: 'carlos.rojas@example.com', idType: 'CC', idNumber: '1020304050' },
      plan: { externalReference: 'invoice-2026-0087', description: 'Matrícula anual', amount: 35000000, modality: 'SINGLE' },
    },
  },
  withCoupon: {
    summary: 'Weekly plan, 20 % off its first 3 charges (extension)',
    value: {
      customer: { phone: '+573001234567', email: 'ana.gomez@example.com', firstName: 'Ana' },
      plan: {
        externalReference: 'order-1043',
        description: 'Plan semanal',
        amount: 2_990_000,
        modality: 'RECURRING',
        interval: { unit: 'week', count: 1 },
        coupon: 'BIENVENIDA20',
      },
    },
  },
} satisfies Record<string, { summary: string; value: CreateLinkInput }>;

/** A coupon (extension, docs/billing.md#coupons). */
export const couponExample = {
  id: IDS.coupon,
  code: 'BIENVENIDA20',
  percentOff: 20,
  amountOff: null,
  duration: 'repeating',
  durationInPeriods: 3,
  maxRedemptions: 100,
  timesRedeemed: 0,
  redeemBy: '2026-12-31T23:59:59.000Z',
  deleted: false,
  createdAt: CREATED_AT,
} satisfies CouponView;

export const paymentLinkExample = (appUrl: string) =>
  ({
    token: IDS.token,
    url: `${appUrl}/pay/${IDS.token}`,
    expiresAt: '2026-11-22T15:04:05.123Z',
    subscriptionPlanId: IDS.plan,
  }) satisfies PaymentLink;

const planPart = { amount: 150000, currency: 'COP', description: 'Plan Premium mensual' } as const;

export const planStatusExamples = {
  pending: {
    summary: 'Link created, customer has not paid yet',
    value: {
      subscriptionPlanId: IDS.plan,
      externalReference: 'order-1042',
      plan: { status: 'PENDING_ACTIVATION', ...planPart, nextChargeDate: Date.parse(CREATED_AT) },
    },
  },
  approved: {
    summary: 'First charge approved, plan active',
    value: {
      subscriptionPlanId: IDS.plan,
      externalReference: 'order-1042',
      plan: { status: 'ACTIVE', ...planPart, nextChargeDate: NEXT_CHARGE },
      lastTransaction: {
        subscriptionTransactionId: IDS.transaction,
        status: 'APPROVED',
        amount: 150000,
        chargeDate: PAID_AT,
        gatewayTransactionId: IDS.gatewayTransaction,
      },
    },
  },
} satisfies Record<string, { summary: string; value: PlanStatusView }>;

export const planRecordExample = {
  id: IDS.plan,
  merchantId: IDS.merchant,
  userId: IDS.customer,
  externalReference: 'order-1042',
  description: 'Plan Premium mensual',
  amount: 150000,
  currency: 'COP',
  modality: 'RECURRING',
  interval: 'MONTHLY',
  status: 'ACTIVE',
  nextChargeDate: NEXT_CHARGE,
  createdAt: CREATED_AT,
  updatedAt: '2026-11-21T15:06:41.512Z',
  customer: { phone: '+573001234567', email: 'ana.gomez@example.com', firstName: 'Ana', lastName: 'Gómez', idType: null, idNumber: null },
} satisfies PlanRecordView;

export const checkoutSessionExample = {
  customer: { phone: '+573001234567', firstName: 'Ana' },
  planName: 'Plan Premium mensual',
  amount: 150000,
  currency: 'COP',
  merchantName: 'Tienda La Esquina',
  merchantId: IDS.merchant,
  modality: 'SUBSCRIPTION',
  expiresAt: Date.parse('2026-11-22T15:04:05.123Z'),
  allowedDomains: ['tienda.example.com', '*.tienda.example.com'],
  status: 'PENDING_ACTIVATION',
} satisfies CheckoutSessionView;

export const createMerchantExample = {
  name: 'Tienda La Esquina',
  webhookUrl: 'https://tienda.example.com/webhooks/servicepay',
  allowedDomains: ['tienda.example.com', '*.tienda.example.com'],
};

export const createdMerchantExample = {
  merchantId: IDS.merchant,
  name: 'Tienda La Esquina',
  apiKey: 'pk_test_Xa9Kd2Lm4Np6Qr8St0Uv2Wx4',
  apiSecret: 'sk_test_Hn3Jk5Lm7Np9Qr1St3Uv5Wx7Yz9Ab1Cd',
  webhookSecret: 'whsec_Gf4Hj6Kl8Mn0Pq2Rs4Tu6Vw8Xy0Za2Bc',
} satisfies CreatedMerchant;

export const updateMerchantExample = { status: 'INACTIVE' };

export const merchantExample = {
  merchantId: IDS.merchant,
  name: 'Tienda La Esquina',
  status: 'INACTIVE',
  webhookUrl: 'https://tienda.example.com/webhooks/servicepay',
  allowedDomains: ['tienda.example.com', '*.tienda.example.com'],
  processor: { type: 'wompi' as const, publicKey: 'pub_test_Q5yDA9xoKdePzhSGeVe9HAez7HgGORGf' },
  webhookEvents: ['subscription.charge.approved', 'subscription.charge.declined', 'subscription.charge.error', 'subscription.charge.voided', 'subscription.cancelled'],
  reminderDays: 3,
  graceDays: 5,
  renewalLadder: true,
  nit: '900123456-7',
  apiVersion: '2026-11-28',
  webhookRetries: true,
  webhookDisabledAt: null,
  eInvoicing: { provider: 'factus' as const, iva: 19 as const },
  createdAt: CREATED_AT,
  updatedAt: '2026-11-23T09:30:00.000Z',
} satisfies ReturnType<typeof merchantView>;

export const webhookExample = (event: WebhookPayload['event'], status: WebhookPayload['data']['status']) =>
  ({
    event,
    data: {
      subscriptionTransactionId: IDS.transaction,
      subscriptionPlanId: IDS.plan,
      externalReference: 'order-1042',
      transactionId: IDS.gatewayTransaction,
      amount: 150000,
      status,
      chargeDate: PAID_AT,
    },
    timestamp: Date.parse('2026-11-21T15:06:43.020Z'),
  }) satisfies WebhookPayload;

/** A lifecycle webhook body (docs/customers.md#lifecycle-events). */
export const lifecycleExample = (event: LifecyclePayload['event']) =>
  ({
    event,
    data: {
      subscriptionPlanId: IDS.plan,
      externalReference: 'order-1042',
      status:
        event === 'subscription.cancelled' || event === 'charge.refund_due'
          ? 'CANCELLED'
          : event === 'subscription.paused'
            ? 'PAUSED'
            : event === 'subscription.trial_will_end'
              ? 'TRIALING'
              : 'ACTIVE',
      nextChargeDate: event === 'subscription.cancelled' || event === 'subscription.paused' || event === 'charge.refund_due' ? null : NEXT_CHARGE,
      ...(event === 'subscription.cancelled' ? { reason: 'Cancelled by the customer' } : {}),
      ...(event === 'subscription.renewal_due'
        ? { renewal: { url: 'https://pay.servicepay.co/pay/Rn7kQ2xW9p', expiresAt: NEXT_CHARGE + 5 * 86_400_000, amount: 150000, period: NEXT_CHARGE } }
        : {}),
      ...(event === 'subscription.trial_will_end' ? { trial: { endsAt: NEXT_CHARGE, amount: 150000 } } : {}),
      ...(event === 'charge.refund_due'
        ? { refund: { subscriptionTransactionId: IDS.transaction, transactionId: IDS.gatewayTransaction, amount: 150000, paymentMethodType: 'PSE' as const, chargeDate: PAID_AT } }
        : {}),
      ...(event === 'invoice.issued' ? { invoice: invoiceExample } : {}),
      ...(event === 'invoice.rejected' ? { invoice: rejectedInvoiceExample } : {}),
    },
    timestamp: Date.parse('2026-11-21T15:06:43.020Z'),
  }) satisfies LifecyclePayload;

/** The reply of `POST …/manage-link` (docs/customers.md#the-manage-page). */
export const manageLinkExample = (appUrl: string) => ({
  url: `${appUrl}/manage/mng_4fQ9xK2mT7vB1nC8dE3gH6jL0pR5sW9yZ2aD4fG7hJ1`,
  expiresAt: '2026-11-28T15:04:05.123Z',
});

/** The plan record after `POST …/pause` (docs/billing.md): no next charge while paused. */
export const pausedPlanExample = { ...planRecordExample, status: 'PAUSED', nextChargeDate: null, updatedAt: '2027-01-05T14:00:00.000Z' } satisfies PlanRecordView;

export const cancelPlanExample = { reason: 'Customer asked to cancel' };

/** The reply of `POST /merchants/transactions/{id}/void`: the first payment, voided. */
export const voidedTransactionExample = {
  subscriptionTransactionId: IDS.transaction,
  status: 'VOIDED',
  amount: 150000,
  chargeDate: PAID_AT,
  gatewayTransactionId: IDS.gatewayTransaction,
} satisfies VoidedView;

/** The test clock run a month after the example's first payment. */
export const billingRunExample = { now: NEXT_CHARGE + 60_000 };

export const sweepSummaryExample = {
  now: NEXT_CHARGE + 60_000,
  due: 1,
  approved: 1,
  declined: 0,
  error: 0,
  pending: 0,
  skipped: 0,
  transactionIds: ['txn_0Sq5kD2eF4gH6iJ8kL0mN2pQ'],
  cancelledPlanIds: [],
  renewalLinks: { issued: 0, reminded: 0, expired: 0 },
  trialNotices: 0,
  idempotencyKeysDeleted: 0,
  settlement: { checked: 0, settled: 0, orphaned: 0, stillPending: 0, failed: 0 },
} satisfies SweepSummary;

/** One webhook event as GET /merchants/webhook-events lists it, delivered at the first attempt. */
export const webhookEventExample = {
  id: IDS.event,
  event: 'subscription.charge.approved',
  subscriptionPlanId: IDS.plan,
  subscriptionTransactionId: IDS.transaction,
  createdAt: '2026-11-21T15:06:43.020Z',
  body: JSON.stringify(webhookExample('subscription.charge.approved', 'APPROVED')),
  attempts: [
    {
      attemptedAt: '2026-11-21T15:06:43.031Z',
      trigger: 'automatic',
      url: 'https://shop.example.com/webhooks/servicepay',
      ok: true,
      statusCode: 200,
      latencyMs: 182,
      error: null,
      responseExcerpt: 'ok',
    },
  ],
  nextRetryAt: null,
};

/** An invoice as GET /merchants/invoices/{id} answers it (docs/api.md#invoices). */
export const invoiceExample = {
  id: IDS.invoice,
  kind: 'INVOICE' as const,
  subscriptionTransactionId: IDS.transaction,
  invoiceId: null,
  status: 'ISSUED' as const,
  number: 'SETP990000001',
  cufe: '6bbe919dd7e0c3088719481d162811717736323cdfb2856a5b6147df183dd37e0e8a998a5b3f6bac00f7d34bc79c214e',
  qrUrl: 'https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=6bbe919dd7e0c3088719481d162811717736323cdfb2856a5b6147df183dd37e0e8a998a5b3f6bac00f7d34bc79c214e',
  total: 4990000,
  iva: 796723,
  period: { start: '2026-11-21', end: '2026-12-20' },
  issuedAt: '2026-11-21T15:06:44.210Z',
  errors: [],
};

/** The same invoice as DIAN rejects it (in an invoice.rejected event). */
export const rejectedInvoiceExample = {
  ...invoiceExample,
  status: 'REJECTED' as const,
  number: null,
  cufe: null,
  qrUrl: null,
  issuedAt: null,
  errors: [{ rule: 'FAD06', message: 'El valor del CUFE no está calculado correctamente' }],
};
