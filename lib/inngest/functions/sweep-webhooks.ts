import { cron } from 'inngest';
import { getDb } from '@/db/client';
import { sweepAndDispatch } from '@/lib/webhooks/sweep';
import { inngest } from '../client';

// Every minute: events committed but never delivered (a crash after the commit, a failed
// hand-off to Inngest) are handed to send-webhook again (docs/webhooks.md#delivery).

export const sweepWebhooksFunction = inngest.createFunction(
  { id: 'sweep-webhooks', retries: 0, concurrency: 1, triggers: [cron('* * * * *')] },
  async ({ step }) => ({ dispatched: await step.run('dispatch-undelivered', async () => sweepAndDispatch(await getDb())) }),
);
