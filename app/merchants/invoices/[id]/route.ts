// GET /merchants/invoices/{id}: one electronic invoice or credit note (extension, docs/api.md#invoices)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { getMerchantInvoice } from '@/lib/invoices/views';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, merchant, params }) => jsonResponse(await getMerchantInvoice(db, merchant.merchantId, params.id)));
