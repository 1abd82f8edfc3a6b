import type { Db } from '@/db/client';
import type { PlanRow } from '@/db/queries/plans';
import type { TransactionRow } from '@/db/queries/transactions';
import { getLifecycleEventSettings } from '@/db/queries/merchants';
import { bodyInMerchantVersion, insertWebhookEvent } from '@/db/queries/webhooks';
import { API_VERSIONS, type ApiVersion, LATEST_API_VERSION } from '@/lib/api-versions';
import { createId } from '@/lib/ids';
import type { Outbox } from '@/lib/outbox';
import './queue';
import { nextChargeDateOf } from '@/lib/calendar/schedule';
import {
  EVENT_TYPE_FOR_STATUS,
  type FinalStatus,
  type LifecycleEventType,
  type LifecyclePayload,
  lifecycleEventIn,
  serializeLifecyclePayload,
  serializeWebhookPayload,
} from './payload';

// Webhook events are written by the transaction that records their outcome, the body serialized
// once here: those bytes are signed, stored and sent on every delivery (docs/webhooks.md#delivery).

function isFinalStatus(status: TransactionRow['status']): status is FinalStatus {
  return status in EVENT_TYPE_FOR_STATUS;
}

/** In `version`; `timestamp` is when the body was made. */
function serializeEventBody(
  plan: Pick<PlanRow, 'id' | 'externalReference'>,
  txn: Pick<TransactionRow, 'id' | 'gatewayTransactionId' | 'amount' | 'chargeDate'> & { status: FinalStatus },
  now: Date,
  version?: ApiVersion,
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
  }, version);
}

/** In the merchant's pinned version, chosen as the row is written. */
function inMerchantVersion(merchantId: string, serialize: (version: ApiVersion) => string) {
  const latest = serialize(LATEST_API_VERSION);
  const older = API_VERSIONS.map((version) => [version, serialize(version)] as [ApiVersion, string]).filter(([, body]) => body !== latest);
  return bodyInMerchantVersion(merchantId, latest, older);
}

/** Null when the transaction already has its event. */
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
    body: inMerchantVersion(plan.merchantId, (version) => serializeEventBody(plan, { ...txn, status }, now, version)),
    createdAt: now,
  });
  if (id) outbox.addWebhookEvent({ eventId: id, merchantId: plan.merchantId });
  return id;
}

/** When the merchant chose the type and its version has it; a refund's event once per transaction. */
export async function recordLifecycleEvent(
  tx: Db,
  outbox: Outbox,
  plan: Pick<PlanRow, 'id' | 'merchantId' | 'externalReference' | 'status' | 'nextChargeDate' | 'cancelReason'>,
  type: LifecycleEventType,
  now: Date = new Date(),
  extra: Pick<LifecyclePayload['data'], 'renewal' | 'change' | 'trial' | 'cancelAt' | 'refund' | 'invoice'> = {},
): Promise<void> {
  const merchant = await getLifecycleEventSettings(tx, plan.merchantId);
  if (!merchant?.types.includes(type) || !lifecycleEventIn(type, merchant.apiVersion)) return;
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
  }, merchant.apiVersion);
  const transactionId = extra.refund?.subscriptionTransactionId ?? null;
  const id = await insertWebhookEvent(tx, { id: createId('evt', now.getTime()), merchantId: plan.merchantId, planId: plan.id, transactionId, type, body, createdAt: now });
  if (id) outbox.addWebhookEvent({ eventId: id, merchantId: plan.merchantId });
}
