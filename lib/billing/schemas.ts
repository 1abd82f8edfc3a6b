import { z } from 'zod';

export const billingRunBodySchema = z
  .object({ now: z.number().int('must be whole epoch milliseconds').min(0).describe('Epoch milliseconds: run the renewal sweep as if it were this time') })
  .meta({ id: 'BillingRunRequest' });

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

export const advanceTestClockBodySchema = z
  .object({
    advanceTo: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date and time, e.g. 2027-01-15T12:00:00Z' })
      .describe('ISO 8601 time to move your clock to: not before its current time, at most 2 years from now'),
  })
  .meta({ id: 'AdvanceTestClockRequest' });

const isoTime = z.iso.datetime({ offset: true });

const movedPlanSchema = z
  .object({
    subscriptionPlanId: z.string(),
    externalReference: z.string(),
    status: z.string().describe('The plan status after the advance'),
    nextChargeDate: isoTime.nullable(),
  })
  .meta({ id: 'TestClockPlan' });

const testClockAdvanceSchema = z
  .object({
    from: isoTime.describe('The clock before the advance'),
    to: isoTime.describe('The clock after it'),
    steps: z.number().int().describe('Times the sweep ran on the way: at each due time between `from` and `to`, then at `to`'),
    approved: z.number().int(),
    declined: z.number().int(),
    error: z.number().int(),
    pending: z.number().int(),
    transactionIds: z.array(z.string()).describe('Charges the advance made (txn_…), oldest first'),
    cancelledPlanIds: z.array(z.string()),
    renewalLinks: z.object({ issued: z.number().int(), reminded: z.number().int(), expired: z.number().int() }),
    trialNotices: z.number().int(),
    plans: z.array(movedPlanSchema).describe('Your plans the advance changed, as they stand after it'),
  })
  .meta({ id: 'TestClockAdvance' });

export const testClockSchema = z
  .object({
    status: z
      .enum(['real_time', 'ready', 'advancing'])
      .describe('`real_time`: no test clock, your plans live in real time; `ready`: frozen at `frozenTime`; `advancing`: an advance is running'),
    frozenTime: isoTime.nullable().describe('Where your clock stands (frozen until moved again or deleted); null in real time'),
    lastAdvance: testClockAdvanceSchema.nullable().describe('What the last advance did; null before the first'),
  })
  .meta({ id: 'TestClock' });

export type TestClockView = z.infer<typeof testClockSchema>;
export type TestClockAdvance = z.infer<typeof testClockAdvanceSchema>;
