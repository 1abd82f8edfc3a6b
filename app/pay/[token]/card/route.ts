// POST /pay/{token}/card: the checkout's card form posted without JavaScript (docs/checkout.md);
// answers 303 to the payment's outcome page or back to the form. With JavaScript the form pays
// through POST /checkout/session/{token}/payments instead.
import { getDb } from '@/db/client';
import { withApi } from '@/lib/api/handler';
import { clientIp } from '@/lib/api/with-checkout';
import { payWithCardForm } from '@/lib/checkout/card-form';
import { merchantProcessors } from '@/lib/processors';

export const POST = withApi<{ token: string }>(async (req, { params }) => {
  const db = await getDb();
  return payWithCardForm(db, merchantProcessors(db), { req, token: params.token, clientKey: clientIp(req) });
});
