// GET /checkout/session/{token} (docs/api.md#checkout-session)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { loadCheckoutSession } from '@/lib/checkout/session';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, params }) => jsonResponse(await loadCheckoutSession(db, params.token)));
