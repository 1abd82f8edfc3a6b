// POST /merchants/usage-reports (docs/billing.md#many-reports-in-one-request): up to 100 usage reports, recorded all together
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { drawMore } from '@/lib/api/with-merchant';
import { merchantNow } from '@/lib/clock';
import { reportUsageBatch } from '@/lib/plans/usage';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, body, audit }) => {
  // The request drew one report's share; the batch draws the rest.
  const headers = body.reports.length > 1 ? await drawMore(merchant, op.POST.limit, body.reports.length) : {};
  const { reports, created } = await reportUsageBatch(db, merchant.merchantId, body.reports, await merchantNow(db, merchant.merchantId), audit);
  return jsonResponse({ data: reports }, { status: created ? 201 : 200, headers });
});
