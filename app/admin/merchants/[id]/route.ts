// PATCH /admin/merchants/{id} (DECISIONS 12)
import { getDb } from '@/db/client';
import { readJson } from '@/lib/api/body';
import { withAdmin } from '@/lib/api/with-admin';
import { updateMerchant } from '@/lib/merchants/merchants';
import { updateMerchantBodySchema } from '@/lib/merchants/schemas';

export const PATCH = withAdmin<{ id: string }>(async (req, { params }) => {
  const body = await readJson(req, updateMerchantBodySchema);
  return Response.json(await updateMerchant(await getDb(), params.id, body));
});
