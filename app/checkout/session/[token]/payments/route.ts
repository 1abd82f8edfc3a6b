// POST /checkout/session/{token}/payments: the customer pays the link (extension, docs/checkout.md):
// the sandbox's card fields, a card token from Wompi, Nequi or PSE, through the merchant's processor.
// The checkout page's language comes as `?lang=` (else Accept-Language) and is recorded on the plan
// for the customer's e-mails (docs/customers.md#e-mails).
import { readJsonObject } from '@/lib/api/body';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { parseCheckoutPayment } from '@/lib/checkout/payment-schemas';
import { payCheckout } from '@/lib/checkout/payments';
import { resolveLang } from '@/lib/i18n/locale';
import { merchantProcessors } from '@/lib/processors';
import * as op from './operation';

export const POST = route(op.POST, async (req, { db, params }) => {
  const payment = parseCheckoutPayment(await readJsonObject(req));
  const lang = resolveLang(new URL(req.url).searchParams.get('lang'), req.headers.get('accept-language'));
  return jsonResponse(await payCheckout(db, merchantProcessors(db), { token: params.token, payment, lang }));
});
