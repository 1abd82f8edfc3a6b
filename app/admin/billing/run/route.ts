// POST /admin/billing/run: the test clock (DECISIONS 11 and 12, extension)
import { getDb } from '@/db/client';
import { readJson } from '@/lib/api/body';
import { ApiError } from '@/lib/api/errors';
import { withAdmin } from '@/lib/api/with-admin';
import { billingRunBodySchema } from '@/lib/billing/schemas';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { env } from '@/lib/env';
import { getPaymentProcessor } from '@/lib/payments';

export const POST = withAdmin(async (req) => {
  const settings = env();
  if (settings.NODE_ENV === 'production' && !settings.SANDBOX_DEPLOYMENT) {
    // As if it did not exist, like the operator API without its token.
    throw new ApiError('not_found', 'The test clock exists only outside production or in a sandbox deployment (SANDBOX_DEPLOYMENT=1)');
  }
  const { now } = await readJson(req, billingRunBodySchema);
  return Response.json(await runRenewalSweep(await getDb(), getPaymentProcessor(), { now: new Date(now) }));
});
