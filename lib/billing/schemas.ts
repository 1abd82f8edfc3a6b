import { z } from 'zod';

/** Body of POST /admin/billing/run: the time the sweep runs as. */
export const billingRunBodySchema = z
  .object({ now: z.number().int('must be whole epoch milliseconds').min(0).describe('Epoch milliseconds: run the renewal sweep as if it were this time') })
  .meta({ id: 'BillingRunRequest' });

/** What a renewal sweep did (lib/billing/sweep.ts). */
export const sweepSummarySchema = z
  .object({
    now: z.number().int().describe('The time the sweep ran as, epoch ms'),
    due: z.number().int().describe('Renewal attempts that were due'),
    approved: z.number().int(),
    declined: z.number().int(),
    error: z.number().int(),
    pending: z.number().int().describe('Left PENDING by the processor; the next sweep asks again'),
    skipped: z.number().int().describe('Attempts another worker holds, or plans that moved on'),
    transactionIds: z.array(z.string()).describe('Renewal transactions this sweep wrote (txn_…)'),
    cancelledPlanIds: z
      .array(z.string())
      .describe('Plans cancelled because their last retry failed, or their renewal link went unpaid through grace (sub_…)'),
    renewalLinks: z
      .object({
        issued: z.number().int().describe('Renewal links e-mailed for the first time'),
        reminded: z.number().int().describe('Reminders sent for open renewal links'),
        expired: z.number().int().describe('Links unpaid at the end of grace: their plans were cancelled with reason `unpaid`'),
      })
      .describe('Plans collected by renewal link (docs/billing.md#renewal-links)'),
    trialNotices: z.number().int().describe('Free trials ending in 3 days whose customer was e-mailed (docs/billing.md#trials); their ends are charged as renewals, counted above'),
    idempotencyKeysDeleted: z.number().int().describe('Idempotency records past their 24 h window, deleted'),
    settlement: z
      .object({
        checked: z.number().int().describe('PENDING charges whose check was due and was made'),
        settled: z.number().int().describe('Made final with the processor’s answer'),
        orphaned: z.number().int().describe('Never received by the processor: now ERROR, the link payable again'),
        stillPending: z.number().int().describe('The processor has not decided yet; asked again later'),
        failed: z.number().int().describe('The processor did not answer; asked again later'),
      })
      .optional()
      .describe('The settler’s pass at the same time (POST /admin/billing/run runs it first): see docs/settlement.md'),
  })
  .meta({ id: 'BillingRun' });

export type SweepSummary = z.infer<typeof sweepSummarySchema>;
