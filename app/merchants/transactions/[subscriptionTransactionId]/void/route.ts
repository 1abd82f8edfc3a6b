// POST /merchants/transactions/{subscriptionTransactionId}/void (docs/billing.md, extension)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { voidCharge } from '@/lib/settlement/void';
import { merchantProcessors } from '@/lib/processors';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { db, merchant, params }) =>
  jsonResponse(await voidCharge(db, merchantProcessors(db), { merchantId: merchant.merchantId, transactionId: params.subscriptionTransactionId })),
);
