// PATCH /admin/merchants/{id} (docs/operations.md#operator-api)
import { getDb } from '@/db/client';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { clientIp } from '@/lib/api/with-checkout';
import { operatorActor } from '@/lib/audit/record';
import { updateMerchant } from '@/lib/merchants/merchants';
import * as op from './operation';

export const PATCH = route(op.PATCH, async (req, { params, body }) =>
  jsonResponse(await updateMerchant(await getDb(), params.id, body, operatorActor(clientIp(req)))),
);
