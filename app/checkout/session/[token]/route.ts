// GET /checkout/session/{token} (SPEC 4.4, DECISIONS 6)
import { withCheckout } from '@/lib/api/with-checkout';
import { loadCheckoutSession } from '@/lib/checkout/session';

export const GET = withCheckout<{ token: string }>(async (_req, { db, params }) =>
  Response.json(await loadCheckoutSession(db, params.token)),
);
