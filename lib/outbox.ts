// What a unit of work hands off once it commits (docs/architecture.md#the-unit-of-work). A state
// change writes its webhook events and e-mails as rows inside its database transaction and notes
// each here; lib/unit-of-work.ts hands them to delivery after the commit and drops them on a
// rollback. Each kind of hand-off registers its sender beside its recorder
// (lib/webhooks/hand-off.ts, lib/email/hand-off.ts): whoever can record one has loaded its sender,
// and this file imports nothing, so every folder of lib may record into it and run a unit of work.

/** A committed webhook event to hand to the queue; the merchant is the queue's concurrency key. */
interface WebhookHandOff {
  eventId: string;
  merchantId: string;
}

export class Outbox {
  readonly webhookEvents: WebhookHandOff[] = [];
  readonly emailIds: string[] = [];

  /** A webhook event row written in this unit of work. */
  addWebhookEvent(event: WebhookHandOff): void {
    this.webhookEvents.push(event);
  }

  /** An e-mail row written in this unit of work. */
  addEmail(id: string): void {
    this.emailIds.push(id);
  }

  get isEmpty(): boolean {
    return this.webhookEvents.length === 0 && this.emailIds.length === 0;
  }
}

/** Sends one kind of hand-off of a committed outbox; `idle` resolves once what it started has finished. */
export interface HandOffSender {
  send(outbox: Outbox): Promise<void>;
  idle?(): Promise<void>;
}

const senders = new Map<string, HandOffSender>();

/** Registers (or replaces) the sender of one kind of hand-off. */
export function registerHandOff(kind: 'webhooks' | 'emails', sender: HandOffSender): void {
  senders.set(kind, sender);
}

export function handOffSenders(): HandOffSender[] {
  return [...senders.values()];
}
