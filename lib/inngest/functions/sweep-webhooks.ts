import { cron } from 'inngest';
import { getDb } from '@/db/client';
import { sweepAndDispatch } from '@/lib/webhooks/sweep';
import { inngest } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// Every minute: events committed but never delivered (a crash after the commit, a failed
// hand-off to Inngest) are handed to send-webhook again (docs/webhooks.md#delivery).

export const sweepWebhooksFunction = inngest.createFunction(
  { id: INNGEST_FUNCTION_IDS.sweepWebhooks, retries: 0, concurrency: 1, triggers: [cron('* * * * *')] },
  async ({ step }) => ({ dispatched: await step.run('dispatch-undelivered', async () => sweepAndDispatch(await getDb())) }),
);
