import type { Db } from '@/db/client';
import { insertEmail } from '@/db/queries/emails';
import { getMerchantName } from '@/db/queries/merchants';
import type { PlanRow } from '@/db/queries/plans';
import type { TransactionRow } from '@/db/queries/transactions';
import { intervalOf } from '@/lib/calendar/interval';
import { createManageLink } from '@/lib/auth/manage-links';
import { createId } from '@/lib/ids';
import type { Outbox } from '@/lib/outbox';
import type { CancelReason } from '@/lib/cancel-reason';
import { type CustomerEmailKind, type PriceChangeFacts, type RenewalFacts, renderEmail, type TrialFacts } from './templates';

// The e-mail outbox (docs/customers.md#e-mails), like the webhook outbox: the e-mail is rendered
// and written in the unit of work of the change it reports (lib/unit-of-work.ts), with a fresh
// manage link; sent after commit (send.ts); whatever is left unsent is found by the sweeper.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/**
 * The wait after each failed attempt (docs/customers.md#e-mails): from 30 s growing to 8 hours, 30
 * hours in all, so an SMTP outage of up to a day loses nothing. After the last one the e-mail
 * is given up: the merchant's plan page says so and offers to send it again.
 */
export const EMAIL_RETRY_DELAYS_MS = [
  30_000, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 20 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 6 * HOUR, 8 * HOUR, 8 * HOUR,
] as const;

/** After this many failed attempts the sweeper leaves an e-mail alone (its attempts say why). */
export const MAX_EMAIL_ATTEMPTS = EMAIL_RETRY_DELAYS_MS.length + 1;

/** When an e-mail that has failed `failedAttempts` times is tried again; null once it is given up. */
export function nextEmailAttemptAt(failedAttempts: number, after: Date): Date | null {
  const delay = EMAIL_RETRY_DELAYS_MS[failedAttempts - 1];
  return delay === undefined ? null : new Date(after.getTime() + delay);
}

/** Writes the customer's e-mail of `kind` about `plan` in the caller's unit of work, which sends it after commit. */
export async function queueCustomerEmail(
  tx: Db,
  outbox: Outbox,
  kind: CustomerEmailKind,
  {
    plan,
    txn,
    renewal,
    now = new Date(),
    reason,
    change,
    trial,
  }: {
    plan: PlanRow;
    txn?: TransactionRow;
    renewal?: RenewalFacts & { amount: number };
    now?: Date;
    reason?: CancelReason;
    change?: PriceChangeFacts;
    /** A trial's e-mails: its end, and what is charged then. */
    trial?: TrialFacts & { amount: number };
  },
): Promise<void> {
  const merchantName = await getMerchantName(tx, plan.merchantId);
  const link = await createManageLink(tx, plan, { source: kind, now });
  const rendered = renderEmail(kind, {
    merchantName: merchantName ?? 'ServicePay',
    customerName: plan.customerFirstName,
    description: plan.description,
    amount: txn?.amount ?? renewal?.amount ?? trial?.amount ?? plan.amount,
    interval: intervalOf(plan),
    chargeDate: txn?.chargeDate,
    reference: txn?.gatewayTransactionId,
    nextDate: plan.status === 'ACTIVE' ? plan.nextChargeDate : null,
    reason: kind === 'cancelled' ? reason : undefined,
    change,
    // A late renewal-link payment (docs/billing.md#late-payments): a card charge is voided.
    ...(kind === 'late_payment' ? { voided: txn?.paymentMethodType === 'CARD' } : {}),
    ...(trial ? { trial: { endsAt: trial.endsAt, noticeFollows: trial.noticeFollows, ...(trial.later === undefined ? {} : { later: trial.later }) } } : {}),
    // An English e-mail opens the manage page in English.
    manageUrl: plan.customerLang === 'en' ? `${link.url}?lang=en` : link.url,
    ...(renewal ? { renewal: { ...renewal, url: plan.customerLang === 'en' ? `${renewal.url}?lang=en` : renewal.url } } : {}),
  }, plan.customerLang);
  const id = createId('eml', now.getTime());
  await insertEmail(tx, {
    id,
    merchantId: plan.merchantId,
    planId: plan.id,
    transactionId: txn?.id ?? null,
    kind,
    toAddress: plan.customerEmail,
    ...rendered,
    createdAt: now,
  });
  outbox.addEmail(id);
}
