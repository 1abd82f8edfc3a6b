import { getDb } from '@/db/client';
import { chargeRenewal, type RenewalOutcome } from '@/lib/billing/renewals';
import { burstSettings } from '@/lib/env';
import { merchantProcessors } from '@/lib/processors';
import { inngest, renewalDue } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// One renewal attempt (docs/billing.md#renewals) in a named step: a retried step charges nothing
// twice. One attempt of a plan at a time, SWEEP_MERCHANT_CONCURRENCY per merchant across
// instances; a 429 sleeps the run, freeing its slot, and tries again.

const PENDING_CHECKS = 5;
/** Tries after a 429: 5 s doubling to 10 min, about 40 minutes in all; then the next sweep's event. */
const RATE_LIMITED_TRIES = 8;
const FIRST_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 10 * 60_000;

export const chargeRenewalFunction = inngest.createFunction(
  {
    id: INNGEST_FUNCTION_IDS.chargeRenewal,
    triggers: [renewalDue],
    concurrency: [
      { key: 'event.data.planId', limit: 1 },
      { key: 'event.data.merchantId', limit: burstSettings().SWEEP_MERCHANT_CONCURRENCY },
    ],
  },
  async ({ event, step }) => {
    const attempt = async (): Promise<RenewalOutcome> => {
      const db = await getDb();
      return chargeRenewal(db, merchantProcessors(db), event.data, new Date());
    };
    let outcome = await step.run('charge-renewal', attempt);
    for (let tryAgain = 1; tryAgain <= RATE_LIMITED_TRIES && outcome.result === 'rate_limited'; tryAgain++) {
      const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (tryAgain - 1));
      await step.sleep(`rate-limited-${tryAgain}`, Math.max(backoff, outcome.retryAfterMs ?? 0));
      outcome = await step.run(`charge-renewal-again-${tryAgain}`, attempt);
    }
    for (let check = 1; check <= PENDING_CHECKS && outcome.result === 'PENDING'; check++) {
      await step.sleep(`wait-for-processor-${check}`, '1m');
      outcome = await step.run(`settle-renewal-${check}`, attempt);
    }
    return outcome;
  },
);
