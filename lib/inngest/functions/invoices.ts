import { cron } from 'inngest';
import { getDb } from '@/db/client';
import { issueDueInvoices } from '@/lib/invoices/issue';
import { sweepInvoices } from '@/lib/invoices/sweep';
import { inngest, invoiceCommitted } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// Electronic invoices with Inngest (docs/einvoicing.md#issuing): issue-invoice a few per merchant
// at once, sweep-invoices every minute. Inngest's retries are off: the claim makes a rerun safe.

export const INVOICE_CONCURRENCY_PER_MERCHANT = 4;

export const issueInvoiceFunction = inngest.createFunction(
  {
    id: INNGEST_FUNCTION_IDS.issueInvoice,
    retries: 0,
    concurrency: { key: 'event.data.merchantId', limit: INVOICE_CONCURRENCY_PER_MERCHANT },
    triggers: [invoiceCommitted],
  },
  async ({ event, step }) => step.run('issue', async () => issueDueInvoices(await getDb(), { ids: [event.data.invoiceId], limit: 1 })),
);

export const sweepInvoicesFunction = inngest.createFunction(
  { id: INNGEST_FUNCTION_IDS.sweepInvoices, retries: 0, concurrency: 1, triggers: [cron('* * * * *')] },
  async ({ step }) => step.run('issue-due-invoices', async () => sweepInvoices(await getDb())),
);

export const invoiceFunctions = [issueInvoiceFunction, sweepInvoicesFunction];
