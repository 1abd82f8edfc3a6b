// POST /admin/billing/run: the test clock (docs/billing.md, docs/operations.md#operator-api, extension)
import { getDb } from '@/db/client';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { runTestClock } from '@/lib/billing/sweep';
import { merchantProcessors } from '@/lib/processors';
import { runSettler } from '@/lib/settlement/settler';
import * as op from './operation';

export const POST = route(op.POST, async (_req, { body: { now } }) => {
  const db = await getDb();
  // Settled first, so a renewal left PENDING is final before the sweep looks at its plan.
  const settlement = await runSettler(db, { now: new Date(now) });
  return jsonResponse({ ...(await runTestClock(db, merchantProcessors(db), new Date(now))), settlement });
});
