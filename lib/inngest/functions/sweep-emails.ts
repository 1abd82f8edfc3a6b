import { cron } from 'inngest';
import { getDb } from '@/db/client';
import { sweepEmails } from '@/lib/email/send';
import { inngest } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// Every minute: customer e-mails committed but never sent (a crash after the commit, an SMTP
// outage) are sent again (docs/customers.md#e-mails).

export const sweepEmailsFunction = inngest.createFunction(
  { id: INNGEST_FUNCTION_IDS.sweepEmails, retries: 0, concurrency: 1, triggers: [cron('* * * * *')] },
  async ({ step }) => ({ tried: await step.run('send-unsent-emails', async () => sweepEmails(await getDb())) }),
);
