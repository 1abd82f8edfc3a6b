import { type Db, getDb } from '@/db/client';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { sweepEmails } from '@/lib/email/send';
import { inngestConfigured } from '@/lib/inngest/client';
import { inngestInvoiceQueue } from '@/lib/inngest/invoice-queue';
import { inngestWebhookQueue } from '@/lib/inngest/webhook-queue';
import { installInvoiceQueue } from '@/lib/invoices/hand-off';
import { sweepInvoices } from '@/lib/invoices/sweep';
import { log } from '@/lib/log';
import { merchantProcessors } from '@/lib/processors';
import { startPeriodic } from '@/lib/periodic';
import { compactOverviewPieces } from '@/lib/portal/overview';
import { deleteExpiredIdempotencyKeys, deleteOldAuditEntries, deleteOldEmails, deleteOldManageLinks, deleteOldWebhookEvents } from '@/lib/retention';
import { runSettler } from '@/lib/settlement/settler';
import { installWebhookQueue } from '@/lib/webhooks/queue';
import { sweepAndDispatch } from '@/lib/webhooks/sweep';

// Who runs the background work, decided once at start-up (lib/bootstrap.ts). With Inngest, its
// functions (lib/inngest) deliver webhooks and run the scheduled jobs; without it, this process
// does, on the in-process webhook queue and timers (docs/operations.md#running-it; docs/operations.md#scheduled-jobs).

const MINUTE = 60_000;

/** A deletion on a timer, logging how many rows went when any did. */
function retentionJob(name: string, everyMs: number, deletion: (db: Db) => Promise<number>, message: string) {
  return {
    name,
    everyMs,
    run: async () => {
      const deleted = await deletion(await getDb());
      if (deleted) log.info(message, { deleted });
    },
  };
}

/** The in-process schedule: what Inngest's cron functions do, at the rhythm one process can keep. */
const IN_PROCESS_JOBS: { name: string; everyMs: number; run: () => Promise<void> }[] = [
  {
    name: 'webhook sweeper',
    everyMs: 15_000,
    run: async () => {
      const count = await sweepAndDispatch(await getDb());
      if (count > 0) log.info('webhook sweeper dispatched events', { count });
    },
  },
  {
    // Customer e-mails left unsent (docs/customers.md#e-mails).
    name: 'e-mail sweeper',
    everyMs: 15_000,
    run: async () => {
      const count = await sweepEmails(await getDb());
      if (count > 0) log.info('e-mail sweeper tried e-mails', { count });
    },
  },
  {
    // Electronic invoices due: a first attempt a crash lost, retries after their backoff (docs/einvoicing.md#issuing).
    name: 'invoice sweep',
    everyMs: 15_000,
    run: async () => {
      const summary = await sweepInvoices(await getDb());
      if (summary.claimed > 0) log.info('invoice sweep', { ...summary });
    },
  },
  {
    name: 'renewal sweep',
    everyMs: MINUTE,
    run: async () => {
      const db = await getDb();
      const summary = await runRenewalSweep(db, merchantProcessors(db));
      if (summary.due) log.info('renewal sweep', { ...summary, transactionIds: undefined });
    },
  },
  {
    // Every PENDING charge reaches a final state (docs/settlement.md); first asked about 10 s
    // after it was made, so a pass every 5 s asks within 15 s.
    name: 'settler',
    everyMs: 5_000,
    run: async () => {
      const summary = await runSettler(await getDb());
      if (summary.checked) log.info('settler', { ...summary });
    },
  },
  retentionJob('overview fold', MINUTE, compactOverviewPieces, 'overview pieces folded'),
  retentionJob('idempotency retention', 60 * MINUTE, deleteExpiredIdempotencyKeys, 'expired idempotency records deleted'),
  retentionJob('webhook retention', 24 * 60 * MINUTE, deleteOldWebhookEvents, 'old webhook events deleted'),
  retentionJob('e-mail retention', 24 * 60 * MINUTE, deleteOldEmails, 'old customer e-mails deleted'),
  retentionJob('manage link retention', 24 * 60 * MINUTE, deleteOldManageLinks, 'long-expired manage links deleted'),
  retentionJob('audit log retention', 24 * 60 * MINUTE, deleteOldAuditEntries, 'audit entries past 2 years deleted'),
];

export function startRunners(): void {
  if (inngestConfigured()) {
    installWebhookQueue(inngestWebhookQueue);
    installInvoiceQueue(inngestInvoiceQueue);
    return;
  }
  installWebhookQueue(undefined);
  installInvoiceQueue(undefined);
  for (const job of IN_PROCESS_JOBS) startPeriodic(job.name, job.everyMs, job.run);
}
