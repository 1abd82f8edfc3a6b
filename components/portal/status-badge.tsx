import type { PlanStatus, TransactionStatus } from '@/db/schema';
import type { PortalCopy } from '@/lib/portal/i18n';

type Status = PlanStatus | TransactionStatus;

const TONE: Record<Status, 'ok' | 'wait' | 'bad' | 'neutral'> = {
  ACTIVE: 'ok',
  APPROVED: 'ok',
  PENDING_ACTIVATION: 'wait',
  TRIALING: 'wait',
  PENDING: 'wait',
  PAUSED: 'wait',
  DECLINED: 'bad',
  ERROR: 'bad',
  CANCELLED: 'bad',
  COMPLETED: 'neutral',
  VOIDED: 'neutral',
};

/** A plan's or transaction's status in the merchant's language; the API's name stays in data-status. */
export function StatusBadge({ status, t }: { status: Status; t: PortalCopy }) {
  return (
    <span className={`badge ${TONE[status]}`} data-status={status}>
      {t.statuses[status]}
    </span>
  );
}
