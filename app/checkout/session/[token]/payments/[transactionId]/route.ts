// GET /checkout/session/{token}/payments/{subscriptionTransactionId}: a payment as it stands,
// settled first if it was PENDING and the processor has decided (the page polls it every 2 s).
import { withCheckout } from '@/lib/api/with-checkout';
import { getPayment } from '@/lib/checkout/payments';
import { merchantProcessors } from '@/lib/payments';

export const GET = withCheckout<{ token: string; transactionId: string }>(async (_req, { db, params }) =>
  Response.json(await getPayment(db, merchantProcessors(db), params)),
);
