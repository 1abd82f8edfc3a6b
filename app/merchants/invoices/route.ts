// GET /merchants/invoices: the merchant's electronic invoices and credit notes (extension, docs/api.md#invoices)
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { listMerchantInvoices } from '@/lib/invoices/views';
import * as op from './operation';

export const GET = route(op.GET, async (_req, { db, merchant, query }) => jsonResponse(await listMerchantInvoices(db, merchant.merchantId, query)));
