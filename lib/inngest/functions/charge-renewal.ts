import { getDb } from '@/db/client';
import { chargeRenewal, type RenewalOutcome } from '@/lib/billing/renewals';
import { merchantProcessors } from '@/lib/payments';
import { inngest, renewalDue } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// One renewal attempt (docs/billing.md): the domain's chargeRenewal in a named step. A retried step
// finds the attempt already made, or in flight, and charges nothing twice. A charge the processor
// leaves PENDING is asked about again each minute, a few times; if it is still PENDING then, the
// cron's events for that attempt carry the same id, so it is asked again once Inngest's
// de-duplication window for the id (24 h) has passed.

const PENDING_CHECKS = 5;

export const chargeRenewalFunction = inngest.createFunction(
  { id: INNGEST_FUNCTION_IDS.chargeRenewal, triggers: [renewalDue], concurrency: { key: 'event.data.planId', limit: 1 } },
  async ({ event, step }) => {
    const attempt = async (): Promise<RenewalOutcome> => {
      const db = await getDb();
      return chargeRenewal(db, merchantProcessors(db), event.data, new Date());
    };
    let outcome = await step.run('charge-renewal', attempt);
    for (let check = 1; check <= PENDING_CHECKS && outcome.result === 'PENDING'; check++) {
      await step.sleep(`wait-for-processor-${check}`, '1m');
      outcome = await step.run(`settle-renewal-${check}`, attempt);
    }
    return outcome;
  },
);
