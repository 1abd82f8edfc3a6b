// POST /pay/{token}/buyer: the hosted page's "Factura a nombre de…" form (docs/einvoicing.md#the-buyer),
// a plain form post with or without JavaScript, answered 303 back to the page.
import { getDb } from '@/db/client';
import { withApi } from '@/lib/api/handler';
import { clientIp } from '@/lib/api/with-checkout';
import { saveBuyerForm } from '@/lib/checkout/buyer-form';

export const POST = withApi<{ token: string }>(async (req, { params }) => saveBuyerForm(await getDb(), { req, token: params.token, clientKey: clientIp(req) }));
