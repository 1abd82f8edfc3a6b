// POST /admin/merchants (docs/operations.md#operator-api)
import { getDb } from '@/db/client';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { clientIp } from '@/lib/api/with-checkout';
import { operatorActor } from '@/lib/audit/record';
import { createMerchant } from '@/lib/merchants/merchants';
import * as op from './operation';

export const POST = route(op.POST, async (req, { body }) =>
  jsonResponse(await createMerchant(await getDb(), body, { actor: operatorActor(clientIp(req)) }), { status: 201 }),
);
