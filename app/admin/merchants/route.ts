// POST /admin/merchants (DECISIONS 12)
import { getDb } from '@/db/client';
import { readJson } from '@/lib/api/body';
import { withAdmin } from '@/lib/api/with-admin';
import { createMerchant } from '@/lib/merchants/merchants';
import { createMerchantBodySchema } from '@/lib/merchants/schemas';

export const POST = withAdmin(async (req) => {
  const body = await readJson(req, createMerchantBodySchema);
  return Response.json(await createMerchant(await getDb(), body), { status: 201 });
});
