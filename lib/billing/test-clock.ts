import type { Db } from '@/db/client';
import { findPlansAwaitingRenewalLink } from '@/db/queries/renewal-links';
import {
  claimTestClock,
  deleteTestClock,
  getTestClock,
  moveTestClock,
  nextDueOfMerchant,
  plansChangedSince,
  releaseTestClock,
  type TestClockRow,
} from '@/db/queries/test-clocks';
import { ApiError } from '@/lib/api/errors';
import { merchantNow } from '@/lib/clock';
import type { ProcessorSource } from '@/lib/processors';
import { linkIssueTime } from '@/lib/settlement/renewal-links';
import type { TestClockAdvance, TestClockView } from './schemas';
import { runRenewalSweep } from './sweep';

// Test clocks per merchant (docs/billing.md#test-clocks): an advance sweeps at each time something
// falls due on the way, so records are dated as the scheduled sweep would; a concurrent advance is a 409.

const MAX_YEARS_AHEAD = 2;
/** Renewed at every step: a crashed advance frees the clock after this. */
const LEASE_MS = 5 * 60_000;
/** Two years of weekly plans take about a hundred. */
const MAX_STEPS = 5_000;

function view(row: TestClockRow | undefined, realNow: Date): TestClockView {
  if (!row) return { status: 'real_time', frozenTime: null, lastAdvance: null };
  const advancing = row.advancingUntil !== null && row.advancingUntil > realNow;
  return { status: advancing ? 'advancing' : 'ready', frozenTime: row.frozenAt.toISOString(), lastAdvance: (row.lastAdvance as TestClockAdvance | null) ?? null };
}

export async function getMerchantTestClock(db: Db, merchantId: string, realNow: Date = new Date()): Promise<TestClockView> {
  return view(await getTestClock(db, merchantId), realNow);
}

/** Back to real time (new plans live there); 409 while an advance runs. */
export async function deleteMerchantTestClock(db: Db, merchantId: string, realNow: Date = new Date()): Promise<TestClockView> {
  if ((await deleteTestClock(db, merchantId, realNow)) === 'advancing') {
    throw new ApiError('conflict', 'The test clock is advancing; delete it once the advance has finished');
  }
  return view(undefined, realNow);
}

export function latestAdvance(realNow: Date): Date {
  const latest = new Date(realNow);
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_YEARS_AHEAD);
  return latest;
}

function refuse(message: string): ApiError {
  return new ApiError('invalid_request', message, { details: [{ path: 'advanceTo', message }] });
}

async function nextDue(db: Db, merchantId: string, after: Date | null, until: Date): Promise<Date | undefined> {
  const times: number[] = [];
  const scheduled = await nextDueOfMerchant(db, merchantId, after);
  if (scheduled) times.push(scheduled.getTime());
  // Link-collected plans wait for their link's e-mail, reminderDays before the due date, as the sweep does.
  const horizon = new Date(until.getTime() + 31 * 86_400_000);
  for (const { plan, reminderDays, graceDays } of await findPlansAwaitingRenewalLink(db, { horizon, limit: 100, merchantId })) {
    if (!plan.nextChargeDate || plan.renewalFailures !== 0) continue;
    const at = linkIssueTime({ ...plan, nextChargeDate: plan.nextChargeDate }, { reminderDays, graceDays }).getTime();
    if (after === null || at > after.getTime()) times.push(at);
  }
  return times.length ? new Date(Math.min(...times)) : undefined;
}

/** Moves the clock to `advanceTo` (at most 2 years ahead), running what falls due. */
export async function advanceMerchantTestClock(
  db: Db,
  processors: ProcessorSource,
  merchantId: string,
  advanceTo: Date,
  realNow: Date = new Date(),
): Promise<TestClockView> {
  const latest = latestAdvance(realNow);
  if (advanceTo > latest) {
    throw refuse(`advanceTo ${advanceTo.toISOString()} is more than ${MAX_YEARS_AHEAD} years from now: a test clock goes at most to ${latest.toISOString()}`);
  }
  const backwards = (current: Date) =>
    refuse(`advanceTo ${advanceTo.toISOString()} is before your clock's time ${current.toISOString()}: a test clock moves only forward (DELETE it to return to real time)`);
  const current = await merchantNow(db, merchantId, realNow);
  if (advanceTo < current) throw backwards(current);
  const claimed = await claimTestClock(db, { merchantId, startAt: current, realNow, leaseUntil: new Date(realNow.getTime() + LEASE_MS) });
  if (!claimed) throw new ApiError('conflict', 'Your test clock is already advancing; wait until that advance finishes, then advance again');
  let outcome: TestClockAdvance;
  try {
    if (advanceTo < claimed.frozenAt) throw backwards(claimed.frozenAt);
    outcome = await walk(db, processors, merchantId, claimed.frozenAt, advanceTo);
    outcome.plans = (await plansChangedSince(db, merchantId, claimed.updatedAt)).map((p) => ({
      subscriptionPlanId: p.id,
      externalReference: p.externalReference,
      status: p.status,
      nextChargeDate: p.nextChargeDate?.toISOString() ?? null,
    }));
  } catch (error) {
    // Given back whatever happened; a failed advance keeps the last summary.
    await releaseTestClock(db, merchantId);
    throw error;
  }
  return view(await releaseTestClock(db, merchantId, outcome), new Date());
}

async function walk(db: Db, processors: ProcessorSource, merchantId: string, from: Date, to: Date): Promise<TestClockAdvance> {
  const total: TestClockAdvance = {
    from: from.toISOString(),
    to: to.toISOString(),
    steps: 0,
    approved: 0,
    declined: 0,
    error: 0,
    pending: 0,
    transactionIds: [],
    cancelledPlanIds: [],
    renewalLinks: { issued: 0, reminded: 0, expired: 0 },
    trialNotices: 0,
    plans: [],
  };
  let at = from;
  let ran = false;
  while (total.steps < MAX_STEPS) {
    // First what is due by the clock's time, then each time after it; the last sweep runs at `to`.
    const due = await nextDue(db, merchantId, ran ? at : null, to);
    const stepAt = due && due <= to ? new Date(Math.max(due.getTime(), at.getTime())) : to;
    // Moved first, so a page payment meanwhile is dated with the sweep.
    await moveTestClock(db, merchantId, { at: stepAt, leaseUntil: new Date(Date.now() + LEASE_MS) });
    const summary = await runRenewalSweep(db, processors, { now: stepAt, merchantId });
    total.steps++;
    total.approved += summary.approved;
    total.declined += summary.declined;
    total.error += summary.error;
    total.pending += summary.pending;
    // A charge left PENDING is resumed by the next step's sweep: listed once.
    total.transactionIds.push(...summary.transactionIds.filter((id) => !total.transactionIds.includes(id)));
    total.cancelledPlanIds.push(...summary.cancelledPlanIds);
    total.renewalLinks.issued += summary.renewalLinks.issued;
    total.renewalLinks.reminded += summary.renewalLinks.reminded;
    total.renewalLinks.expired += summary.renewalLinks.expired;
    total.trialNotices += summary.trialNotices;
    at = stepAt;
    ran = true;
    if (stepAt.getTime() >= to.getTime()) break;
  }
  return total;
}
