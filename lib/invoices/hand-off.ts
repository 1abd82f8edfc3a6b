import { getDb } from '@/db/client';
import { errorFields, log } from '@/lib/log';
import { registerQueuedHandOff } from '@/lib/outbox';
import { issueDueInvoices } from './issue';

// Issuing the documents a unit of work recorded once it commits (docs/einvoicing.md#issuing): to
// Inngest's issue-invoice function when Inngest is configured (lib/runners.ts installs that queue),
// otherwise in this process with a bounded number in flight. Whatever a crash or a full queue
// leaves behind, the sweep takes (sweepInvoices). A hand-off never delays or fails the payment.

export interface InvoiceJob {
  invoiceId: string;
  merchantId: string;
  reason?: 'voided' | 'retried';
}

export interface InvoiceQueue {
  enqueue(jobs: InvoiceJob[]): Promise<void>;
}

/** Documents issued at once by this process; the rest wait their turn here, then the sweep. */
const IN_PROCESS_CONCURRENCY = 16;
const IN_PROCESS_BACKLOG = 10_000;

const waiting: string[] = [];
let active = 0;
const idle = new Set<() => void>();

function pump(): void {
  while (active < IN_PROCESS_CONCURRENCY && waiting.length > 0) {
    const ids = waiting.splice(0, Math.min(4, waiting.length));
    active += 1;
    void (async () => issueDueInvoices(await getDb(), { ids, limit: ids.length }))()
      .catch((error: unknown) => log.error('issuing invoices failed; the sweep will try them again', { invoiceIds: ids, ...errorFields(error) }))
      .finally(() => {
        active -= 1;
        pump();
        if (active === 0 && waiting.length === 0) for (const resolve of idle) resolve();
      });
  }
}

export const inProcessInvoiceQueue: InvoiceQueue = {
  async enqueue(jobs) {
    for (const job of jobs) if (waiting.length < IN_PROCESS_BACKLOG) waiting.push(job.invoiceId);
    pump();
  },
};

/** Resolves once every document this process started issuing is done (tests, shutdown). */
export function invoicesIdle(): Promise<void> {
  if (active === 0 && waiting.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      idle.delete(done);
      resolve();
    };
    idle.add(done);
  });
}

const queue = registerQueuedHandOff<InvoiceJob, InvoiceQueue>('invoices', {
  inProcess: inProcessInvoiceQueue,
  jobs: ({ invoices }) => invoices,
  failed: (error, jobs) => log.error('invoice hand-off failed; the sweep will issue them', { invoiceIds: jobs.map((i) => i.invoiceId), ...errorFields(error) }),
  idle: invoicesIdle,
});
export const installInvoiceQueue = queue.install;
export const invoiceQueue = queue.current;
