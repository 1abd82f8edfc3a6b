import type { Db } from '@/db/client';
import {
  type DeliveryTarget,
  disableEndpoint,
  findDueRetries,
  markEndpointFailing,
  markEndpointHealthy,
  merchantContact,
  scheduleRetry,
} from '@/db/queries/webhooks';
import { env } from '@/lib/env';
import { queueMerchantEmail } from '@/lib/email/record';
import { log } from '@/lib/log';
import { inTransaction } from '@/lib/unit-of-work';
import { renderDisabledNotice } from './disabled-notice';

// Opt-in webhook retries (docs/webhooks.md#retries): the same bytes ~1 min to 12 h apart for up to
// 3 days, taken by one conditional UPDATE. An endpoint failing for 3 days is disabled and the merchant told.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** After the first attempt, then each retry; the last repeats. */
export const RETRY_DELAYS_MS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 12 * HOUR] as const;

/** An endpoint failing this long is disabled. */
export const RETRY_WINDOW_MS = 72 * HOUR;

/** Per sweep. */
const RETRY_SWEEP_BATCH = 500;

/** Null once 3 days would pass. */
export function nextRetryAt(event: { createdAt: Date; retries: number }, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[Math.min(event.retries, RETRY_DELAYS_MS.length - 1)]!;
  const at = new Date(now.getTime() + delay);
  return at.getTime() - event.createdAt.getTime() <= RETRY_WINDOW_MS ? at : null;
}

/** Ends or continues the failing spell, disables, or schedules the next retry. */
export async function afterAutomaticAttempt(db: Db, event: DeliveryTarget, ok: boolean, now: Date): Promise<Date | null> {
  if (ok) {
    if (event.webhookFailingSince) await markEndpointHealthy(db, event.merchantId);
    return null;
  }
  if (!event.webhookRetries) return null;
  const failingSince = await markEndpointFailing(db, event.merchantId, now);
  if (now.getTime() - failingSince.getTime() >= RETRY_WINDOW_MS) {
    await disableAndTell(db, event, now);
    return null;
  }
  const at = nextRetryAt(event, now);
  await scheduleRetry(db, event.id, at);
  return at;
}

async function disableAndTell(db: Db, event: DeliveryTarget, now: Date): Promise<void> {
  await inTransaction(db, async (tx, outbox) => {
    if (!(await disableEndpoint(tx, event.merchantId, now))) return;
    log.warn('webhook endpoint disabled after 3 days of failed deliveries', { merchantId: event.merchantId });
    const contact = await merchantContact(tx, event.merchantId);
    if (!contact?.email || !contact.webhookUrl) return;
    const rendered = renderDisabledNotice({
      merchantName: contact.merchantName,
      webhookUrl: contact.webhookUrl,
      failingSince: contact.failingSince ?? now,
      settingsUrl: `${env().APP_URL}/portal/settings/webhooks`,
    });
    await queueMerchantEmail(tx, outbox, {
      merchantId: event.merchantId,
      planId: event.planId,
      transactionId: null,
      kind: 'webhook_disabled',
      toAddress: contact.email,
      ...rendered,
      createdAt: now,
    });
  });
}

export function findRetriesToSend(db: Db, now: Date = new Date()) {
  return findDueRetries(db, { now, limit: RETRY_SWEEP_BATCH });
}
