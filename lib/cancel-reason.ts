// Why a plan was cancelled (docs/customers.md#e-mails), as a code the e-mail puts into the
// customer's language. The `cancelReason` column and the webhook's `reason` carry the English text.

export type CancelReason =
  | { code: 'customer' }
  /** `text`: the merchant's own reason (the cancel endpoint's `reason`), kept as written. */
  | { code: 'merchant'; text?: string }
  /** The last renewal retry failed: `attempts` in a row, the last with `last` (a decline code or status). */
  | { code: 'renewal_failed'; attempts: number; last: string }
  /** A renewal link's grace ran out unpaid (docs/billing.md#renewal-links). */
  | { code: 'unpaid' }
  /** A cancellation at the end of the period took effect (docs/billing.md#cancel-at-the-end-of-the-period); `text`: why it was asked for. */
  | { code: 'period_end'; text?: string };

export const CUSTOMER_CANCEL_REASON = 'Cancelled by the customer';
const DEFAULT_CANCEL_REASON = 'Cancelled by the merchant';

/** The reason as the plan and the merchant's webhooks carry it (English, for developers). */
export function cancelReasonText(reason: CancelReason): string {
  switch (reason.code) {
    case 'customer':
      return CUSTOMER_CANCEL_REASON;
    case 'merchant':
      return reason.text ?? DEFAULT_CANCEL_REASON;
    case 'renewal_failed':
      return `Renewal failed ${reason.attempts} times in a row (last: ${reason.last})`;
    case 'unpaid':
      return 'unpaid';
    case 'period_end':
      return reason.text ?? 'Cancelled at the end of the period';
  }
}
