// POST /checkout/session/{token}/payments: the customer pays the link (extension, DECISIONS 5, 7)
import { readJson } from '@/lib/api/body';
import { withCheckout } from '@/lib/api/with-checkout';
import { payWithCard } from '@/lib/checkout/payments';
import { cardPaymentBodySchema } from '@/lib/checkout/schemas';
import { getPaymentProcessor } from '@/lib/payments';

export const POST = withCheckout<{ token: string }>(async (req, { db, params }) => {
  const card = await readJson(req, cardPaymentBodySchema);
  return Response.json(await payWithCard(db, getPaymentProcessor(), { token: params.token, card }));
});
