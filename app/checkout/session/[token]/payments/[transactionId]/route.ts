// GET /checkout/session/{token}/payments/{subscriptionTransactionId}: a payment as it stands,
// settled first if it was PENDING and the processor has decided (the page polls it every 2 s).
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { getPayment } from '@/lib/checkout/payments';
import { merchantProcessors } from '@/lib/processors';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, params }) => jsonResponse(await getPayment(db, merchantProcessors(db), params)));
