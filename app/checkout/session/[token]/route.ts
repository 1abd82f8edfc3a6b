// GET /checkout/session/{token} (SPEC 4.4, DECISIONS 6)
import { route } from '@/lib/api/route';
import { loadCheckoutSession } from '@/lib/checkout/session';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, params }) => Response.json(await loadCheckoutSession(db, params.token)));
