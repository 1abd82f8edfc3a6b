// GET /portal/export/plans?q=&status=: the signed-in merchant's plans as CSV, with the list's filters.
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
    ['subscriptionPlanId', 'externalReference', 'description', 'amount', 'currency', 'modality', 'status', 'customerEmail', 'nextChargeDate', 'createdAt'],
    plans.map((p) => [p.id, p.externalReference, p.description, p.amount, 'COP', p.modality, p.status, p.customerEmail, p.nextChargeDate?.toISOString(), p.createdAt.toISOString()]),
  );
  return csvResponse('plans.csv', csv);
}
