// POST /manage/{token}/cancel: the manage page's confirmed cancellation, a plain form post with or
// without JavaScript (docs/customers.md#the-manage-page); 303 back to the page, 403 from another site.
import { getDb } from '@/db/client';
import { withApi } from '@/lib/api/handler';
import { cancelWithForm } from '@/lib/customers/manage-form';

export const POST = withApi<{ token: string }>(async (req, { params }) => cancelWithForm(await getDb(), { req, token: params.token }));
