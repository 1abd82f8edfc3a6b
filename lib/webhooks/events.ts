import type { Db } from '@/db/client';
import type { PlanRow } from '@/db/queries/plans';
import type { TransactionRow } from '@/db/queries/transactions';
import { getWebhookEventTypes } from '@/db/queries/merchants';
import { insertWebhookEvent } from '@/db/queries/webhooks';
import { createId } from '@/lib/ids';
import type { Outbox } from '@/lib/outbox';
import { nextChargeDateOf } from '@/lib/plans/views';
import {
  EVENT_TYPE_FOR_STATUS,
  type FinalStatus,
  type LifecycleEventType,
  type LifecyclePayload,
  serializeLifecyclePayload,
  serializeWebhookPayload,
} from './payload';

// The outbox side of webhooks (docs/webhooks.md#delivery): the event is written by the database transaction
// that records the outcome it reports, its body serialized here once. Those bytes are what is
// signed, stored and sent, on every delivery and resend.

export function isFinalStatus(status: TransactionRow['status']): status is FinalStatus {
  return status in EVENT_TYPE_FOR_STATUS;
}

/** The webhook body (docs/webhooks.md#payload). `timestamp` is when the body was made. */
export function serializeEventBody(
  plan: Pick<PlanRow, 'id' | 'externalReference'>,
  txn: Pick<TransactionRow, 'id' | 'gatewayTransactionId' | 'amount' | 'chargeDate'> & { status: FinalStatus },
  now: Date,
): string {
  return serializeWebhookPayload({
    event: EVENT_TYPE_FOR_STATUS[txn.status],
    data: {
      subscriptionTransactionId: txn.id,
      subscriptionPlanId: plan.id,
      externalReference: plan.externalReference,
      transactionId: txn.gatewayTransactionId,
      amount: txn.amount,
      status: txn.status,
      chargeDate: txn.chargeDate.getTime(),
    },
    timestamp: now.getTime(),
  });
}

/**
 * Writes the event for a transaction's final outcome in the caller's unit of work
 * (lib/unit-of-work.ts), which delivers it after commit. Returns its id, or null when that outcome
 * already has its event (one per transaction and type).
 */
export async function recordChargeEvent(
  tx: Db,
  outbox: Outbox,
  plan: Pick<PlanRow, 'id' | 'merchantId' | 'externalReference'>,
  txn: TransactionRow,
  now: Date = new Date(),
): Promise<string | null> {
  const status = txn.status;
  if (!isFinalStatus(status)) throw new Error(`no webhook event for a ${status} transaction`);
  const id = await insertWebhookEvent(tx, {
    id: createId('evt', now.getTime()),
    merchantId: plan.merchantId,
    planId: plan.id,
    transactionId: txn.id,
    type: EVENT_TYPE_FOR_STATUS[status],
    body: serializeEventBody(plan, { ...txn, status }, now),
    createdAt: now,
  });
  if (id) outbox.addWebhookEvent({ eventId: id, merchantId: plan.merchantId });
  return id;
}

/**
 * Writes a lifecycle event (docs/customers.md#lifecycle-events) in the unit of work that made the
 * change, only when the merchant chose this event type; delivered after commit.
 */
export async function recordLifecycleEvent(
  tx: Db,
  outbox: Outbox,
  plan: Pick<PlanRow, 'id' | 'merchantId' | 'externalReference' | 'status' | 'nextChargeDate' | 'cancelReason'>,
  type: LifecycleEventType,
  now: Date = new Date(),
  extra: Pick<LifecyclePayload['data'], 'renewal' | 'change'> = {},
): Promise<void> {
  if (!(await getWebhookEventTypes(tx, plan.merchantId)).includes(type)) return;
  const body = serializeLifecyclePayload({
    event: type,
    data: {
      subscriptionPlanId: plan.id,
      externalReference: plan.externalReference,
      status: plan.status,
      nextChargeDate: nextChargeDateOf(plan),
      ...(type === 'subscription.cancelled' && plan.cancelReason ? { reason: plan.cancelReason } : {}),
      ...extra,
    },
    timestamp: now.getTime(),
  });
  const id = await insertWebhookEvent(tx, { id: createId('evt', now.getTime()), merchantId: plan.merchantId, planId: plan.id, transactionId: null, type, body, createdAt: now });
  outbox.addWebhookEvent({ eventId: id!, merchantId: plan.merchantId });
}
