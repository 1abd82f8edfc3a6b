import { type FormCopy, LANG_TAG, type Lang, checkoutCopy } from '@/lib/checkout/i18n';
import type { PaymentView } from '@/lib/checkout/payments';
import { type CheckoutState, CheckoutShell, StatusMessage, type Tone } from './checkout-shell';
import styles from './checkout.module.css';

// The outcome of a card payment posted without JavaScript (docs/checkout.md): the same messages
// the client form shows after paying, rendered on the server. A PENDING payment refreshes the
// page every few seconds until it settles (each load asks the processor again).

const PENDING_REFRESH_SECONDS = 2;

interface View {
  state: CheckoutState;
  tone: Tone;
  title: string;
  text: string;
}

function viewOf(payment: PaymentView, copy: FormCopy): View {
  const s = copy.status;
  // A renewal link's payment approved after its plan was cancelled or paused (docs/billing.md#late-payments).
  if (payment.late && s.late) return { state: 'unavailable', tone: 'warning', title: s.late.title, text: payment.status === 'VOIDED' ? s.late.voided : s.late.refund };
  if (payment.status === 'APPROVED') return { state: 'approved', tone: 'success', ...s.approved };
  if (payment.status === 'PENDING') return { state: 'processing', tone: 'progress', ...s.pending };
  if (payment.status === 'DECLINED') {
    const reason = payment.declineReason;
    const text = reason === 'insufficient_funds' || reason === 'card_not_supported' ? s.declined[reason] : s.declined.other;
    return { state: 'declined', tone: 'danger', title: s.declined.title, text };
  }
  return { state: 'error', tone: 'danger', ...s.error };
}

export function CheckoutOutcome(props: { payment: PaymentView; lang: Lang; copy: FormCopy; retryHref: string; children: React.ReactNode }) {
  const { payment, copy } = props;
  const view = viewOf(payment, copy);
  const settledId = payment.status === 'PENDING' ? undefined : (payment.transactionId ?? undefined);
  return (
    <CheckoutShell state={view.state} transactionId={settledId} lang={LANG_TAG[props.lang]} copy={checkoutCopy(props.lang)}>
      {view.state === 'processing' ? <meta httpEquiv="refresh" content={String(PENDING_REFRESH_SECONDS)} /> : null}
      {props.children}
      <StatusMessage tone={view.tone} title={view.title}>
        <p>{view.text}</p>
        {view.state === 'approved' && settledId ? (
          <p>
            {copy.status.approved.transactionId}: <strong className={styles.reference}>{settledId}</strong>
          </p>
        ) : null}
        {view.state === 'approved' ? <p>{copy.status.approved.close}</p> : null}
        {view.state === 'declined' || view.state === 'error' ? (
          <p>
            <a href={props.retryHref}>{copy.tryAgain}</a>
          </p>
        ) : null}
      </StatusMessage>
    </CheckoutShell>
  );
}
