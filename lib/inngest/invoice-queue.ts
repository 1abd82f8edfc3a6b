import type { InvoiceQueue } from '@/lib/invoices/hand-off';
import { inngest, invoiceCommitted } from './client';

// The invoice hand-off when Inngest is configured (installed at start-up by lib/runners.ts): one
// Inngest event per committed document, its id the document's (a repeated hand-off is dropped;
// a void's or a retry's later hand-off of the same document has an id of its own).

export const inngestInvoiceQueue: InvoiceQueue = {
  async enqueue(jobs) {
    if (jobs.length === 0) return;
    await inngest.send(jobs.map(({ invoiceId, merchantId, reason }) => invoiceCommitted.create({ invoiceId, merchantId }, { id: reason ? `${reason}-${invoiceId}-${Date.now()}` : invoiceId })));
  },
};
