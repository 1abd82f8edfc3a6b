// PATCH /admin/merchants/{id} (docs/operations.md#operator-api)
import { getDb } from '@/db/client';
import { route } from '@/lib/api/route';
import { updateMerchant } from '@/lib/merchants/merchants';
import * as op from './operation';

export const PATCH = route(op.PATCH, async (_req, { params, body }) => Response.json(await updateMerchant(await getDb(), params.id, body)));
