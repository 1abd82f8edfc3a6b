import type { Db } from '@/db/client';
import { listAmountOf } from '@/lib/calendar/schedule';
import { insertEmail } from '@/db/queries/emails';
import type { PlanRow } from '@/db/queries/plans';
import type { TransactionRow } from '@/db/queries/transactions';
import { intervalOf } from '@/lib/calendar/interval';
import { createManageLink } from '@/lib/auth/manage-links';
import { createId } from '@/lib/ids';
import type { Outbox } from '@/lib/outbox';
import { merchantFactsIn } from '@/lib/merchant-facts';
import type { CancelReason } from '@/lib/cancel-reason';
import './send';
import { type CustomerEmailKind, type PriceChangeFacts, type ReceiptInvoice, type RenewalFacts, renderEmail, type TrialFacts, withReceiptInvoice } from './templates';

// Recording e-mails (docs/customers.md#e-mails): rendered and written in the unit of work of the
// change they report, sent after commit by send.ts.

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
    invoice,
  }: {
    plan: PlanRow;
    txn?: TransactionRow;
    renewal?: RenewalFacts & { amount: number };
    now?: Date;
    reason?: CancelReason;
    change?: PriceChangeFacts;
    /** A trial's e-mails: its end, and what is charged then. */
    trial?: TrialFacts & { amount: number };
    /** An invoice e-mail's document. */
    invoice?: ReceiptInvoice;
  },
): Promise<void> {
  const merchantName = (await merchantFactsIn(tx, outbox, plan.merchantId))?.name;
  const link = await createManageLink(tx, plan, { source: kind, now });
  const rendered = renderEmail(kind, {
    merchantName: merchantName ?? 'ServicePay',
    customerName: plan.customerFirstName,
    description: plan.description,
    amount: txn?.amount ?? renewal?.amount ?? trial?.amount ?? listAmountOf(plan),
    interval: intervalOf(plan),
    chargeDate: txn?.chargeDate,
    reference: txn?.gatewayTransactionId,
    nextDate: plan.status === 'ACTIVE' ? plan.nextChargeDate : null,
    reason: kind === 'cancelled' ? reason : undefined,
    change,
    // A late renewal-link payment (docs/billing.md#late-payments): a card charge is voided.
    ...(kind === 'late_payment' ? { voided: txn?.paymentMethodType === 'CARD' } : {}),
    ...(trial
      ? {
          trial: {
            endsAt: trial.endsAt,
            noticeFollows: trial.noticeFollows,
            ...(trial.later === undefined ? {} : { later: trial.later }),
            ...(trial.listAmount === undefined ? {} : { listAmount: trial.listAmount }),
          },
        }
      : {}),
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
    ...(invoice ? withReceiptInvoice(rendered, invoice) : {}),
    createdAt: now,
  });
  outbox.addEmail(id);
}

/** Writes an e-mail to the merchant (`webhook_disabled`) in the caller's unit of work, which sends it after commit. */
export async function queueMerchantEmail(tx: Db, outbox: Outbox, email: Omit<Parameters<typeof insertEmail>[1], 'id'> & { createdAt: Date }): Promise<void> {
  const id = createId('eml', email.createdAt.getTime());
  await insertEmail(tx, { id, ...email });
  outbox.addEmail(id);
}
