// POST /admin/billing/run: the test clock (DECISIONS 11 and 12, extension)
import { getDb } from '@/db/client';
import { readJson } from '@/lib/api/body';
import { ApiError } from '@/lib/api/errors';
import { withAdmin } from '@/lib/api/with-admin';
import { billingRunBodySchema } from '@/lib/billing/schemas';
import { runTestClock } from '@/lib/billing/sweep';
import { env } from '@/lib/env';
import { merchantProcessors } from '@/lib/payments';
import { runSettler } from '@/lib/settlement/settler';

export const POST = withAdmin(async (req) => {
  const settings = env();
  if (settings.NODE_ENV === 'production' && !settings.SANDBOX_DEPLOYMENT) {
    // As if it did not exist, like the operator API without its token.
    throw new ApiError('not_found', 'The test clock exists only outside production or in a sandbox deployment (SANDBOX_DEPLOYMENT=1)');
  }
  const { now } = await readJson(req, billingRunBodySchema);
  const db = await getDb();
  // Settled first, so a renewal left PENDING is final before the sweep looks at its plan.
  const settlement = await runSettler(db, { now: new Date(now) });
  return Response.json({ ...(await runTestClock(db, merchantProcessors(db), new Date(now))), settlement });
});
