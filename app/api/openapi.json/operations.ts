import * as updateAdminMerchant from '@/app/admin/merchants/[id]/operation';
import * as runBilling from '@/app/admin/billing/run/operation';
import * as adminMerchants from '@/app/admin/merchants/operation';
import * as health from '@/app/api/health/operation';
import * as checkoutPayment from '@/app/checkout/session/[token]/payments/[transactionId]/operation';
import * as checkoutPayments from '@/app/checkout/session/[token]/payments/operation';
import * as coupon from '@/app/merchants/coupons/[id]/operation';
import * as coupons from '@/app/merchants/coupons/operation';
import * as checkoutSession from '@/app/checkout/session/[token]/operation';
import * as planStatus from '@/app/merchants/plans/[subscriptionPlanId]/status/operation';
import * as subscriptionLink from '@/app/merchants/subscription-link/operation';
import * as cancelPlan from '@/app/merchants/subscription-plans/[id]/cancel/operation';
import * as manageLink from '@/app/merchants/subscription-plans/[id]/manage-link/operation';
import * as reportUsage from '@/app/merchants/subscription-plans/[id]/usage/operation';
import * as reportUsageBatch from '@/app/merchants/usage-reports/operation';
import * as plan from '@/app/merchants/subscription-plans/[id]/operation';
import * as pausePlan from '@/app/merchants/subscription-plans/[id]/pause/operation';
import * as resumePlan from '@/app/merchants/subscription-plans/[id]/resume/operation';
import * as voidTransaction from '@/app/merchants/transactions/[subscriptionTransactionId]/void/operation';
import * as invoice from '@/app/merchants/invoices/[id]/operation';
import * as invoices from '@/app/merchants/invoices/operation';
import * as testClock from '@/app/merchants/test-clock/operation';
import * as resendEvent from '@/app/merchants/webhook-events/[id]/resend/operation';
import * as webhookEvents from '@/app/merchants/webhook-events/operation';
import * as listenEvents from '@/app/merchants/webhook-events/listen/operation';
import * as wompiEvents from '@/app/processors/wompi/events/[merchantId]/operation';
import type { Method, Operation } from '@/lib/api/operation';

// Every operation of the API, in the document's order: one import per operation.ts beside a
// route.ts (docs/api.md, "Adding an operation"). Collected here, beside the route that serves the
// document, so lib never imports app; lib/openapi/operations.test.ts holds this list and the route
// files equal, by importing both.

const MODULES: Partial<Record<Method, Operation>>[] = [
  subscriptionLink,
  planStatus,
  plan,
  pausePlan,
  resumePlan,
  cancelPlan,
  manageLink,
  reportUsage,
  reportUsageBatch,
  voidTransaction,
  coupons,
  coupon,
  testClock,
  invoices,
  invoice,
  webhookEvents,
  listenEvents,
  resendEvent,
  checkoutSession,
  checkoutPayments,
  checkoutPayment,
  adminMerchants,
  updateAdminMerchant,
  runBilling,
  health,
  wompiEvents,
];

const METHODS: Method[] = ['GET', 'POST', 'PATCH', 'DELETE'];

export const OPERATIONS: Operation[] = MODULES.flatMap((declared) => METHODS.flatMap((method) => declared[method] ?? []));
