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

export function handOffSenders(): HandOffSender[] {
  return [...senders.values()];
}
