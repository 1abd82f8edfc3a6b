import type { z } from 'zod';
import type { Db } from '@/db/client';
import { getInvoiceForMerchant, listInvoices, reopenInvoice } from '@/db/queries/invoices';
import { getPlanForMerchant } from '@/db/queries/plans';
import { ApiError } from '@/lib/api/errors';
import { findMerchantPlan } from '@/lib/api/find-plan';
import { findOwned } from '@/lib/api/ownership';
import { RETRY_WINDOW_MS } from './documents';
import { invoiceQueue } from './hand-off';
import { type InvoiceView, invoiceView, type listInvoicesQuerySchema } from './schemas';


// A merchant's electronic invoices as the API and the portal show them (docs/api.md#invoices), and
// the retry of one DIAN rejected or the provider never answered.

export async function listMerchantInvoices(db: Db, merchantId: string, query: z.infer<typeof listInvoicesQuerySchema>) {
  const planId = query.subscriptionPlanId;
  if (planId !== undefined) await findMerchantPlan(db, planId, () => getPlanForMerchant(db, { merchantId, planId }));
  const rows = await listInvoices(db, { merchantId, planId, status: query.status, before: query.cursor, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  return { data: page.map(invoiceView), nextCursor: rows.length > query.limit ? page.at(-1)!.id : null };
}

export async function getMerchantInvoice(db: Db, merchantId: string, invoiceId: string): Promise<InvoiceView> {
  return invoiceView(await findOwned(db, 'inv', invoiceId, () => getInvoiceForMerchant(db, { merchantId, invoiceId })));
}

/** REJECTED or FAILED → PENDING and issued again now (the merchant fixed the cause); 409 in any other state. */
export async function retryInvoice(db: Db, merchantId: string, invoiceId: string, now = new Date()): Promise<InvoiceView> {
  const found = await findOwned(db, 'inv', invoiceId, () => getInvoiceForMerchant(db, { merchantId, invoiceId }));
  const reopened = await reopenInvoice(db, { id: found.id, merchantId, now, retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS) });
  if (!reopened) throw new ApiError('conflict', `Only a REJECTED or FAILED invoice can be retried; this one is ${found.status}`);
  await invoiceQueue().enqueue([{ invoiceId: reopened.id, merchantId, reason: 'retried' }]);
  return invoiceView(reopened);
}
