// GET, POST and DELETE /merchants/test-clock: the merchant's own test clock (extension, docs/billing.md#test-clocks)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { advanceMerchantTestClock, deleteMerchantTestClock, getMerchantTestClock } from '@/lib/billing/test-clock';
import { merchantProcessors } from '@/lib/processors';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, merchant }) => jsonResponse(await getMerchantTestClock(db, merchant.merchantId)));

export const POST = route(op.POST, async (_req, { db, merchant, body }) =>
  jsonResponse(await advanceMerchantTestClock(db, merchantProcessors(db), merchant.merchantId, new Date(body.advanceTo))),
);

export const DELETE = route(op.DELETE, async (_req, { db, merchant }) => jsonResponse(await deleteMerchantTestClock(db, merchant.merchantId)));
