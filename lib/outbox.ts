// What a unit of work hands off once it commits (docs/architecture.md#the-unit-of-work). Each kind
// of hand-off registers its sender beside its recorder; this file imports nothing, so every folder
// of lib may record into it.

/** A committed webhook event to hand to the queue; the merchant is the queue's concurrency key. */
interface WebhookHandOff {
  eventId: string;
  merchantId: string;
}

/** A committed electronic invoice (or credit note) to issue; the merchant keys its concurrency. */
interface InvoiceHandOff {
  invoiceId: string;
  merchantId: string;
  /** A second hand-off: its charge was voided while it was not known to be issued, or the merchant retried it. */
  reason?: 'voided' | 'retried';
}

export class Outbox {
  readonly webhookEvents: WebhookHandOff[] = [];
  readonly emailIds: string[] = [];
  readonly invoices: InvoiceHandOff[] = [];

  addWebhookEvent(event: WebhookHandOff): void {
    this.webhookEvents.push(event);
  }

  addEmail(id: string): void {
    this.emailIds.push(id);
  }

  /** An invoice row written in this unit of work, to issue once it commits. */
  addInvoice(invoice: InvoiceHandOff): void {
    this.invoices.push(invoice);
  }

  get isEmpty(): boolean {
    return this.webhookEvents.length === 0 && this.emailIds.length === 0 && this.invoices.length === 0;
  }
}

/** Sends one kind of hand-off of a committed outbox; `idle` resolves once what it started has finished. */
export interface HandOffSender {
  send(outbox: Outbox): Promise<void>;
  idle?(): Promise<void>;
}

const senders = new Map<string, HandOffSender>();

/** Registers (or replaces) the sender of one kind of hand-off. */
export function registerHandOff(kind: 'webhooks' | 'emails' | 'invoices', sender: HandOffSender): void {
  senders.set(kind, sender);
}

/**
 * A hand-off that sends its jobs to a queue: the one installed at start-up (lib/runners.ts) or by a
 * test, else `inProcess`. Kept on globalThis, as instrumentation and the routes are separate module
 * graphs in Next.js. A refusal is only logged, by `failed`: the sweepers send what a queue dropped.
 */
export function registerQueuedHandOff<Job, Queue extends { enqueue(jobs: Job[]): Promise<void> }>(
  kind: 'webhooks' | 'invoices',
  sender: {
    inProcess: Queue;
    jobs: (outbox: Outbox) => Job[];
    failed: (error: unknown, jobs: Job[]) => void;
    idle: () => Promise<void>;
  },
) {
  const slot = globalThis as typeof globalThis & Partial<Record<string, Queue>>;
  const key = kind === 'webhooks' ? '__servicepayWebhookQueue' : '__servicepayInvoiceQueue';
  const current = (): Queue => slot[key] ?? sender.inProcess;
  registerHandOff(kind, {
    async send(outbox) {
      const jobs = sender.jobs(outbox);
      if (jobs.length === 0) return;
      await current()
        .enqueue(jobs)
        .catch((error: unknown) => sender.failed(error, jobs));
    },
    idle: sender.idle,
  });
  return {
    install: (queue: Queue | undefined): void => {
      slot[key] = queue;
    },
    current,
  };
}

export function handOffSenders(): HandOffSender[] {
  return [...senders.values()];
}
