// What a unit of work hands off once it commits (docs/architecture.md#the-unit-of-work). A state
// change writes its webhook events and e-mails as rows inside its database transaction and notes
// each here; lib/unit-of-work.ts hands them to delivery after the commit and drops them on a
// rollback. Nothing else: this file imports nothing, so every folder of lib may record into it.

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

  /** A customer e-mail row written in this unit of work. */
  addEmail(id: string): void {
    this.emailIds.push(id);
  }

  get isEmpty(): boolean {
    return this.webhookEvents.length === 0 && this.emailIds.length === 0;
  }
}
