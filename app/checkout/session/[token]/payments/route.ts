// POST /checkout/session/{token}/payments: the customer pays the link (extension, docs/checkout.md):
// the sandbox's card fields, a card token from Wompi, Nequi or PSE, through the merchant's processor.
import { readJsonObject } from '@/lib/api/body';
import { route } from '@/lib/api/route';
import { parseCheckoutPayment } from '@/lib/checkout/payment-schemas';
import { payCheckout } from '@/lib/checkout/payments';
import { merchantProcessors } from '@/lib/payments';
import * as op from './operation';

export const POST = route(op.POST, async (req, { db, params }) => {
  const payment = parseCheckoutPayment(await readJsonObject(req));
  return Response.json(await payCheckout(db, merchantProcessors(db), { token: params.token, payment }));
});
