import { eventType, Inngest } from 'inngest';
import { z } from 'zod';
import { env } from '@/lib/env';
import { INNGEST_APP_ID } from './function-ids';

// One Inngest client and the events ServicePay sends itself. The client reads INNGEST_* from the
// environment as usual; `inngestConfigured()` says whether work goes to Inngest at all
// (docs/operations.md#running-it: unset, the same function code runs in this process).

export const inngest = new Inngest({ id: INNGEST_APP_ID });

/** Whether Inngest is set up (an event key, or the dev server); otherwise work runs in process. */
export function inngestConfigured(): boolean {
  const settings = env();
  return Boolean(settings.INNGEST_EVENT_KEY || settings.INNGEST_DEV);
}

const id = z.string().min(1);

/** An outbox event was committed: deliver it once. The Inngest event id is the outbox id. */
export const webhookEventCreated = eventType('servicepay/webhook.created', {
  schema: z.object({ eventId: id, merchantId: id }),
});

/** A webhook retry is due (docs/webhooks.md#retries); its id names the event and time, so it is sent once. */
export const webhookRetryDue = eventType('servicepay/webhook.retry-due', {
  schema: z.object({ eventId: id, merchantId: id, dueAt: z.iso.datetime() }),
});

/** A merchant asked to send an event again (same bytes, same id). */
export const webhookEventResent = eventType('servicepay/webhook.resent', {
  schema: z.object({ eventId: id, merchantId: id }),
});

/** One renewal attempt is due; its id (plan, period, attempt) drops a second sweep's duplicate. */
export const renewalDue = eventType('servicepay/renewal.due', {
  // merchantId keys the per-merchant concurrency of charge-renewal; events sent before it was added lack it.
  schema: z.object({ planId: id, merchantId: id.optional(), period: z.number().int(), attempt: z.number().int().min(0).max(3) }),
});

/** An electronic invoice (or credit note) was committed: issue it (docs/einvoicing.md#issuing). */
export const invoiceCommitted = eventType('servicepay/invoice.committed', {
  schema: z.object({ invoiceId: id, merchantId: id }),
});
