import { cron } from 'inngest';
import { getDb } from '@/db/client';
import { runSettler } from '@/lib/settlement/settler';
import { inngest } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// Every minute: the settler of docs/settlement.md, the same pass the in-process timer runs. Each
// PENDING charge is asked about once its check is due (one minute after it was made, then at
// doubling intervals); one the processor never received becomes ERROR after two minutes.

export const settlePaymentsFunction = inngest.createFunction(
  { id: INNGEST_FUNCTION_IDS.settlePayments, retries: 0, concurrency: 1, triggers: [cron('* * * * *')] },
  async ({ step }) => step.run('settle-pending-charges', async () => runSettler(await getDb())),
);
