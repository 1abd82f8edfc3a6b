import { getDb } from '@/db/client';
import { chargeRenewal, type RenewalOutcome } from '@/lib/billing/renewals';
import { env } from '@/lib/env';
import { merchantProcessors } from '@/lib/processors';
import { inngest, renewalDue } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// One renewal attempt (docs/billing.md): the domain's chargeRenewal in a named step. A retried step
// finds the attempt already made, or in flight, and charges nothing twice. A charge the processor
// leaves PENDING is asked about again each minute, a few times; if it is still PENDING then, the
// cron's events for that attempt carry the same id, so it is asked again once Inngest's
// de-duplication window for the id (24 h) has passed.

//
// The renewal day's fan-out (docs/billing.md#renewals): one attempt of a plan at a time, and at
// most SWEEP_MERCHANT_CONCURRENCY of one merchant's attempts charging at once across every
// instance (Inngest's concurrency keys). A charge the merchant's processor refuses for rate (a 429)
// charged nothing: the run sleeps, which frees its slot for other merchants, and tries again,
// waiting longer each time.

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
      { key: 'event.data.merchantId', limit: env().SWEEP_MERCHANT_CONCURRENCY },
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
