// POST /manage/{token}/method: the manage page's new payment method, a plain form post with or
// without JavaScript (docs/customers.md#the-manage-page); 303 back to the page, 403 from another site.
import { getDb } from '@/db/client';
import { withApi } from '@/lib/api/handler';
import { replaceMethodWithForm } from '@/lib/customers/manage-form';
import { merchantProcessors } from '@/lib/processors';

export const POST = withApi<{ token: string }>(async (req, { params }) => {
  const db = await getDb();
  return replaceMethodWithForm(db, merchantProcessors(db), { req, token: params.token });
});
