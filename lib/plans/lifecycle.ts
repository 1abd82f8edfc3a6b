import type { Db } from '@/db/client';
import { findPlansResumingBy, getPlanForMerchant, lockPlan, type PlanRow, transitionPlan } from '@/db/queries/plans';
import { closeOpenRenewalLinkOfPlan } from '@/db/queries/renewal-links';
import { ApiError } from '@/lib/api/errors';
import { intervalOf, MONTHLY, nextDueAfter } from '@/lib/calendar/interval';
import { periodDueOf } from '@/lib/calendar/schedule';
import { notePlanChange } from '@/lib/notices';
import { inTransaction } from '@/lib/unit-of-work';
import type { LifecycleEventType } from '@/lib/webhooks/payload';
import { type CancelReason, cancelReasonText } from '@/lib/cancel-reason';
import { findMerchantPlan } from '@/lib/api/find-plan';

// Pause, resume and cancel (docs/states.md, docs/billing.md, extension endpoints). Each runs under the plan's
// row lock, like every change to a plan's payments, so it cannot interleave with a renewal's
// bookkeeping; a transition section 5 does not list is a 409.

type Scope = { merchantId: string; planId: string };

type Change = Parameters<typeof transitionPlan>[3];

const MAX_PAUSE_MS = 366 * 24 * 60 * 60 * 1000;

/** One transition under the plan's lock, with its event and e-mail in the same unit of work. */
async function transitionWithNotices(
  db: Db,
  find: (tx: Db) => Promise<PlanRow>,
  { from, change, refused, event }: { from: readonly PlanRow['status'][]; change: (plan: PlanRow) => Change; refused: string; event: LifecycleEventType },
  now: Date = new Date(),
): Promise<PlanRow> {
  return (await transitionFrom(db, find, { from, change, refused, event }, now)).after;
}

/** transitionWithNotices, answering the plan before and after the change; a cancel's `reason` goes into its e-mail. */
export function transitionFrom(
  db: Db,
  find: (tx: Db) => Promise<PlanRow>,
  { from, change, refused, event, reason }: { from: readonly PlanRow['status'][]; change: (plan: PlanRow) => Change; refused: string; event: LifecycleEventType; reason?: CancelReason },
  now: Date = new Date(),
): Promise<{ before: PlanRow; after: PlanRow }> {
  return inTransaction(db, async (tx, outbox) => {
    const before = await lockPlan(tx, (await find(tx)).id);
    const after = from.includes(before.status) ? await transitionPlan(tx, before.id, from, change(before)) : undefined;
    if (!after) throw new ApiError('conflict', `${refused}: the plan is ${before.status}`);
    // An open renewal link no longer takes payments (docs/billing.md#renewal-links): a resumed plan
    // starts a new period, a cancelled one has none.
    if (after.status === 'PAUSED' || after.status === 'CANCELLED') {
      await closeOpenRenewalLinkOfPlan(tx, after.id, after.status === 'PAUSED' ? 'SUPERSEDED' : 'CANCELLED');
    }
    await notePlanChange(tx, outbox, { before, after }, event, { now, reason });
    return { before, after };
  });
}

function transition(db: Db, scope: Scope, from: readonly PlanRow['status'][], change: (plan: PlanRow) => Change, refused: string, event: LifecycleEventType) {
  return transitionWithNotices(db, (tx) => findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope)), { from, change, refused, event });
}

/** ACTIVE → PAUSED: no renewal is attempted while paused; with `resumesAt` the sweep resumes it then (docs/billing.md#pause-until-a-date). */
export function pausePlan(db: Db, scope: Scope, { resumesAt = null, now = new Date() }: { resumesAt?: Date | null; now?: Date } = {}): Promise<PlanRow> {
  if (resumesAt && (resumesAt <= now || resumesAt.getTime() > now.getTime() + MAX_PAUSE_MS)) {
    const message = 'must be after now and at most a year from now';
    throw new ApiError('invalid_request', `resumesAt ${message}`, { details: [{ path: 'resumesAt', message }] });
  }
  return transition(db, scope, ['ACTIVE'], () => ({ status: 'PAUSED', resumesAt }), 'Only an ACTIVE plan can be paused', 'subscription.paused');
}

/** A paused plan back on its schedule: the first due day after `now`, paused periods never charged. */
function resumed(plan: PlanRow, now: Date): Change {
  return {
    status: 'ACTIVE',
    nextChargeDate: nextDueAfter(now, plan.nextChargeDate ? periodDueOf(plan) : now, intervalOf(plan) ?? MONTHLY, plan.billingAnchorDay),
    renewalFailures: 0,
    resumesAt: null,
  };
}

/** PAUSED → ACTIVE on its schedule. */
export function resumePlan(db: Db, scope: Scope, now: Date = new Date()): Promise<PlanRow> {
  return transition(db, scope, ['PAUSED'], (plan) => resumed(plan, now), 'Only a PAUSED plan can be resumed', 'subscription.resumed');
}

/** Runs `act` on each plan `find` names, page by page, until a page moves none: a sweep's step. */
export async function eachDuePlan(find: (limit: number) => Promise<string[]>, act: (planId: string) => Promise<boolean>, pageSize = 500): Promise<string[]> {
  const done: string[] = [];
  for (;;) {
    const ids = await find(pageSize);
    let moved = 0;
    for (const id of ids) {
      if (await act(id)) {
        done.push(id);
        moved++;
      }
    }
    if (ids.length < pageSize || moved === 0) return done;
  }
}

/** The sweep's step: every plan paused until `now` or before resumes, with its event (of `merchantId` only, for its test clock). */
export function resumeDuePauses(db: Db, now: Date, { merchantId }: { merchantId?: string } = {}): Promise<string[]> {
  return eachDuePlan(
    (limit) => findPlansResumingBy(db, { now, limit, merchantId }),
    (planId) =>
      inTransaction(db, async (tx, outbox) => {
        const before = await lockPlan(tx, planId);
        if (before.status !== 'PAUSED' || !before.resumesAt || before.resumesAt > now) return false;
        const after = await transitionPlan(tx, planId, ['PAUSED'], resumed(before, now));
        if (after) await notePlanChange(tx, outbox, { before, after }, 'subscription.resumed', { now });
        return Boolean(after);
      }),
  );
}

/** → CANCELLED; `text` is the merchant's own reason, kept as written. */
export async function cancelPlan(db: Db, scope: Scope, text?: string): Promise<PlanRow> {
  const reason: CancelReason = { code: 'merchant', ...(text ? { text } : {}) };
  const find = (tx: Db) => findMerchantPlan(tx, scope.planId, () => getPlanForMerchant(tx, scope));
  const { after } = await transitionFrom(db, find, {
    from: ['PENDING_ACTIVATION', 'TRIALING', 'ACTIVE', 'PAUSED'],
    change: () => ({ status: 'CANCELLED', cancelReason: cancelReasonText(reason), cancelAt: null }),
    refused: 'This plan cannot be cancelled',
    event: 'subscription.cancelled',
    reason,
  });
  return after;
}
