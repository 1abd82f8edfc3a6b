import type { Db } from '@/db/client';
import { uniqueViolation } from '@/db/errors';
import { getMerchant } from '@/db/queries/merchants';
import { insertPlanWithCustomer } from '@/db/queries/plans';
import { ApiError } from '@/lib/api/errors';
import { MONTHLY } from '@/lib/calendar/interval';
import { redeemForPlan } from '@/lib/coupons/coupons';
import { env } from '@/lib/env';
import { wompiAmountProblem } from '@/lib/processors/wompi/amounts';
import { createId, randomBase62 } from '@/lib/ids';
import { CHECKOUT_TOKEN_LENGTH } from '@/lib/widget/protocol';
import type { CreateLinkBody, PaymentLink } from './schemas';
import { merchantNow } from '@/lib/clock';
import { inTransaction } from '@/lib/unit-of-work';
import { ivaColumn } from '@/lib/invoices/settings';
import type { KeyAudit } from '@/lib/api/key-audit';
import { auditRow } from '@/lib/audit/record';

/**
 * docs/api.md#create-a-payment-link: the customer, the plan and its token in one statement, with
 * the API key's audit entry when `audit` is given. An open plan with the same externalReference is
 * a 409 (a partial unique index decides); a coupon is redeemed in the same transaction.
 */
export async function createPaymentLink(db: Db, merchantId: string, body: CreateLinkBody, { at, audit }: { at?: Date; audit?: KeyAudit } = {}): Promise<PaymentLink> {
  const ref = body.plan.coupon;
  // A plan made while the merchant's test clock is moved lives on it (docs/billing.md#test-clocks).
  const now = at ?? (await merchantNow(db, merchantId));
  if (ref === undefined) return insertLink(db, merchantId, body, null, now, audit);
  return inTransaction(db, async (tx) => {
    const { terms } = await redeemForPlan(tx, { merchantId, ref, amount: body.plan.amount * (body.plan.quantity ?? 1), field: 'plan.coupon', now });
    return insertLink(tx, merchantId, body, terms, now, audit);
  });
}

async function insertLink(
  db: Db,
  merchantId: string,
  body: CreateLinkBody,
  coupon: Awaited<ReturnType<typeof redeemForPlan>>['terms'] | null,
  now: Date,
  audit: KeyAudit | undefined,
): Promise<PaymentLink> {
  const { APP_URL, CHECKOUT_TOKEN_TTL_SECONDS } = env();
  const { customer, plan } = body;
  // Only an amount Wompi would refuse costs a look at the merchant's processor.
  const offAmount = wompiAmountProblem(plan.amount);
  if (offAmount && (await getMerchant(db, merchantId))?.processorType === 'wompi') {
    throw new ApiError('invalid_request', `plan.amount ${offAmount}`, { details: [{ path: 'plan.amount', message: offAmount }] });
  }
  if (plan.setupFee !== undefined && plan.setupFee % 100 !== 0 && (await getMerchant(db, merchantId))?.processorType === 'wompi') {
    const message = 'must be whole pesos (a multiple of 100 cents) through Wompi';
    throw new ApiError('invalid_request', `plan.setupFee ${message}`, { details: [{ path: 'plan.setupFee', message }] });
  }
  const interval = plan.modality === 'RECURRING' ? (plan.interval ?? MONTHLY) : null;
  const token = randomBase62(CHECKOUT_TOKEN_LENGTH);
  const planId = createId('sub', now.getTime());
  const tokenExpiresAt = new Date(now.getTime() + CHECKOUT_TOKEN_TTL_SECONDS * 1000);
  try {
    await insertPlanWithCustomer(
      db,
      {
        id: createId('cus', now.getTime()),
        merchantId,
        email: customer.email,
        phone: customer.phone,
        firstName: customer.firstName,
        lastName: customer.lastName,
        idType: customer.idType,
        idNumber: customer.idNumber,
      },
      {
        id: planId,
        merchantId,
        externalReference: plan.externalReference,
        description: plan.description,
        amount: plan.amount,
        modality: plan.modality,
        intervalUnit: interval?.unit ?? null,
        intervalCount: interval?.count ?? null,
        customerTaxIdType: customer.taxId?.type ?? null,
        customerTaxIdNumber: customer.taxId?.number ?? null,
        customerTaxIdDv: customer.taxId?.dv ?? null,
        customerLegalName: customer.legalName ?? null,
        trialDays: plan.modality === 'RECURRING' ? (plan.trialDays ?? null) : null,
        status: 'PENDING_ACTIVATION',
        // docs/api.md#plan-status: while pending, the first charge is due now.
        nextChargeDate: now,
        checkoutToken: token,
        tokenExpiresAt,
        allowPromotionCodes: plan.allowPromotionCodes ?? false,
        quantity: plan.quantity ?? 1,
        setupFee: plan.setupFee ?? null,
        usageUnitAmount: plan.usage?.unitAmount ?? null,
        usageIncludedUnits: plan.usage ? (plan.usage.includedUnits ?? 0) : null,
        minimumPeriods: plan.minimumPeriods ?? null,
        billingDay: plan.billingDay ?? null,
        iva: plan.iva === undefined ? null : ivaColumn(plan.iva),
        ...coupon,
        createdAt: now,
      },
      // Taken last, once nothing above can refuse the link.
      audit && auditRow(audit.take()),
    );
    return {
      token,
      url: `${APP_URL}/pay/${token}`,
      expiresAt: tokenExpiresAt.toISOString(),
      subscriptionPlanId: planId,
    };
  } catch (error) {
    if (uniqueViolation(error) === 'subscription_plans_open_reference_key') {
      throw new ApiError('conflict', 'A plan with this externalReference is already open (pending, active or paused)');
    }
    throw error;
  }
}
