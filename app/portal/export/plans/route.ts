// GET /portal/export/plans?q=&status=: the signed-in merchant's plans as CSV, with the list's filters.
// `amount` is the list price; a coupon's terms (docs/billing.md#coupons) come last, empty without one.
import { getDb } from '@/db/client';
import { listPlans } from '@/db/queries/activity';
import { currentUser } from '@/lib/portal/accounts';
import { CSV_EXPORT_LIMIT, csvResponse, toCsv } from '@/lib/portal/csv';
import { planFilterOf } from '@/lib/portal/list-params';

export async function GET(req: Request) {
  const user = await currentUser(req.headers);
  if (!user) return new Response('Sign in first', { status: 401 });
  const filter = { ...planFilterOf(new URL(req.url).searchParams), before: undefined };
  const { plans } = await listPlans(await getDb(), user.merchantId, filter, CSV_EXPORT_LIMIT);
  const csv = toCsv(
    ['subscriptionPlanId', 'externalReference', 'description', 'amount', 'currency', 'modality', 'status', 'customerEmail', 'nextChargeDate', 'createdAt', 'couponId', 'discountPercent', 'discountAmount', 'discountPeriods', 'discountPeriodsUsed'],
    plans.map((p) => [
      p.id, p.externalReference, p.description, p.amount, 'COP', p.modality, p.status, p.customerEmail, p.nextChargeDate?.toISOString(), p.createdAt.toISOString(),
      p.couponId, p.discountPercent, p.discountAmount, p.discountPeriods, p.couponId ? p.discountPeriodsUsed : null,
    ]),
  );
  return csvResponse('plans.csv', csv);
}
