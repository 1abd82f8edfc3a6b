import { getDb } from '@/db/client';
import { runRenewalLinks } from '@/lib/settlement/renewal-links';
import { findDueRenewals, type RenewalDue, renewalEventId } from '@/lib/billing/renewals';
import { endScheduledCancellations } from '@/lib/plans/cancel-at';
import { resumeDuePauses } from '@/lib/plans/lifecycle';
import { inngest, renewalDue } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// The renewal cron (docs/billing.md): one event per plan, period and attempt due, at most
// MAX_PER_SWEEP a sweep; plans renewed by link are one step of e-mails and grace.

const MAX_PER_SWEEP = 10_000;

export const sweepRenewals = inngest.createFunction(
  { id: INNGEST_FUNCTION_IDS.sweepRenewals, triggers: [{ cron: '*/10 * * * *' }] },
  async ({ step }) => {
    // Plans cancelled at the end of their period end before any renewal is looked for.
    await step.run('end-scheduled-cancellations', async () => endScheduledCancellations(await getDb(), new Date()));
    await step.run('resume-due-pauses', async () => resumeDuePauses(await getDb(), new Date()));
    const due = await step.run('find-due-renewals', async () => {
      const found: RenewalDue[] = [];
      for await (const page of findDueRenewals(await getDb(), new Date())) {
        found.push(...page);
        if (found.length >= MAX_PER_SWEEP) break;
      }
      return found.slice(0, MAX_PER_SWEEP);
    });
    if (due.length) {
      await step.sendEvent(
        'send-renewal-events',
        due.map((attempt) => renewalDue.create(attempt, { id: renewalEventId(attempt) })),
      );
    }
    const links = await step.run('renewal-links', async () => runRenewalLinks(await getDb(), new Date()));
    return { due: due.length, renewalLinks: links };
  },
);
