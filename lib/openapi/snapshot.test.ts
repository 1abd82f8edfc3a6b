import { describe, expect, it } from 'vitest';
import { OPERATIONS as DECLARED } from '@/app/api/openapi.json/operations';
import { buildOpenApiDocument } from './document';

// What the document said before operations were declared beside their routes (docs/api.md): every
// operation with its id and status codes, the webhooks, the named schemas. The generated document
// must say the same; a new operation or schema is added here on purpose. (While the change landed,
// the whole earlier document was a fixture, equal field for field but for what zod-openapi writes
// otherwise: a parameter's default `required: false`, and the Wompi event body, now generated from
// the schema its route parses.)

const doc = buildOpenApiDocument({ appUrl: 'https://pay.example.co', checkoutTokenTtlSeconds: 86_400 }, DECLARED);

const OPERATIONS = [
  'DELETE /merchants/coupons/{id} deleteCoupon → 200 401 403 404 429 500 503',
  'DELETE /merchants/test-clock deleteTestClock → 200 401 404 409 429 500 503',
  'GET /api/health getHealth → 200 503',
  'GET /checkout/session/{token} getCheckoutSession → 200 400 404 429 500 503',
  'GET /merchants/coupons listCoupons → 200 400 401 429 500 503',
  'GET /merchants/invoices listInvoices → 200 400 401 403 404 429 500 503',
  'GET /merchants/invoices/{id} getInvoice → 200 401 403 404 429 500 503',
  'GET /merchants/plans/{subscriptionPlanId}/status getPlanStatus → 200 401 403 404 429 500 503',
  'GET /merchants/subscription-plans/{id} getSubscriptionPlan → 200 401 403 404 429 500 503',
  'GET /merchants/test-clock getTestClock → 200 401 404 429 500 503',
  'GET /merchants/webhook-events listWebhookEvents → 200 400 401 403 404 429 500 503',
  'GET /merchants/webhook-events/listen listenWebhookEvents → 200 400 401 403 404 429 500 503',
  'PATCH /admin/merchants/{id} updateMerchant → 200 400 401 404 413 415 500 503',
  'PATCH /merchants/subscription-plans/{id} changeSubscriptionPlanPrice → 200 400 401 403 404 409 413 415 429 500 503',
  'POST /admin/billing/run runBillingSweep → 200 400 401 404 413 415 500 503',
  'POST /admin/merchants createMerchant → 201 400 401 404 413 415 500 503',
  'POST /merchants/coupons createCoupon → 201 400 401 409 413 415 429 500 503',
  'POST /merchants/subscription-link createSubscriptionLink → 200 400 401 409 413 415 429 500 503',
  'POST /merchants/subscription-plans/{id}/cancel cancelSubscriptionPlan → 200 400 401 403 404 409 413 415 429 500 503',
  'POST /merchants/subscription-plans/{id}/manage-link createManageLink → 201 400 401 403 404 413 415 429 500 503',
  'POST /merchants/subscription-plans/{id}/pause pauseSubscriptionPlan → 200 400 401 403 404 409 413 415 429 500 503',
  'POST /merchants/subscription-plans/{id}/resume resumeSubscriptionPlan → 200 400 401 403 404 409 413 415 429 500 503',
  'POST /merchants/subscription-plans/{id}/usage reportUsage → 200 201 400 401 403 404 409 413 415 429 500 503',
  'POST /merchants/test-clock advanceTestClock → 200 400 401 404 409 413 415 429 500 503',
  'POST /merchants/transactions/{subscriptionTransactionId}/void voidTransaction → 200 400 401 403 404 409 413 415 429 500 503',
  'POST /merchants/usage-reports reportUsageBatch → 200 201 400 401 403 404 409 413 415 429 500 503',
  'POST /merchants/webhook-events/{id}/resend resendWebhookEvent → 202 401 403 404 409 429 500 503',
  'POST /processors/wompi/events/{merchantId} receiveWompiEvent → 200 400 401 413 415 500 503',
];

const SCHEMAS = [
  'AdvanceTestClockRequest', 'AlegraSettings', 'BillingRun', 'BillingRunRequest', 'CancelPlanRequest', 'CheckoutSession', 'Coupon', 'CouponPage', 'CreateCouponRequest', 'CreateLinkRequest', 'CreateMerchantRequest', 'CreatedMerchant', 'CustomerTaxId',
  'EmptyRequest', 'Error', 'FactusSettings', 'Health', 'Invoice', 'InvoicePage', 'ManageLink', 'Merchant', 'MerchantEInvoicing', 'MerchantProcessor', 'PausePlanRequest', 'PaymentLink', 'PlanInterval', 'PlanStatus', 'PlanTrial', 'PriceChangeRequest', 'SubscriptionLifecycleEvent', 'SubscriptionPlan', 'TestClock', 'TestClockAdvance', 'TestClockPlan', 'UpdateMerchantRequest', 'UsageBatch', 'UsageBatchRequest', 'UsageReport', 'UsageReportRequest',
  'VoidedTransaction', 'WebhookAttempt', 'WebhookEvent', 'WebhookEventPage', 'WebhookEventRecord', 'WebhookResend',
];

const WEBHOOKS = [
  'charge.refund_due',
  'invoice.issued',
  'invoice.rejected',
  'subscription.activated',
  'subscription.cancelled',
  'subscription.charge.approved',
  'subscription.charge.declined',
  'subscription.charge.error',
  'subscription.charge.voided',
  'subscription.paused',
  'subscription.payment_method_updated',
  'subscription.renewal_due',
  'subscription.resumed',
  'subscription.trial_will_end',
  'subscription.updated',
];

describe('the generated OpenAPI document', () => {
  it('has the operations, ids and status codes it had', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId} → ${Object.keys(op.responses as object).sort().join(' ')}`),
    );
    expect(operations.sort()).toEqual(OPERATIONS);
  });

  it('has the webhooks and named schemas it had', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(WEBHOOKS);
    expect(Object.keys(doc.components.schemas).sort()).toEqual(SCHEMAS);
  });
});
