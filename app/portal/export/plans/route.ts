// GET /portal/export/plans?q=&status=: the signed-in merchant's plans as CSV, with the list's filters.
// `amount` is the list price; a coupon's terms (docs/billing.md#coupons) come last, empty without one.
import { listPlans } from '@/db/queries/activity';
import { CSV_EXPORT_LIMIT, toCsv } from '@/lib/portal/csv';
import { csvExport } from '@/lib/portal/csv-export';
import { planFilterOf } from '@/lib/portal/list-params';

export const GET = csvExport('plans.csv', planFilterOf, async (db, merchantId, filter) => {
  const { plans } = await listPlans(db, merchantId, filter, CSV_EXPORT_LIMIT);
  return toCsv(
    ['subscriptionPlanId', 'externalReference', 'description', 'amount', 'currency', 'modality', 'status', 'customerEmail', 'nextChargeDate', 'createdAt', 'couponId', 'discountPercent', 'discountAmount', 'discountPeriods', 'discountPeriodsUsed'],
    plans.map((p) => [
      p.id, p.externalReference, p.description, p.amount, 'COP', p.modality, p.status, p.customerEmail, p.nextChargeDate?.toISOString(), p.createdAt.toISOString(),
      p.couponId, p.discountPercent, p.discountAmount, p.discountPeriods, p.couponId ? p.discountPeriodsUsed : null,
    ]),
  );
});
