// POST /manage/{token}/buyer: the manage page's "Factura a nombre de…" form, who later invoices are
// made out to (docs/einvoicing.md#the-buyer); a plain form post, 303 back to the page, 403 from another site.
import { getDb } from '@/db/client';
import { withApi } from '@/lib/api/handler';
import { changeBuyerWithForm } from '@/lib/customers/manage-form';

export const POST = withApi<{ token: string }>(async (req, { params }) => changeBuyerWithForm(await getDb(), { req, token: params.token }));
