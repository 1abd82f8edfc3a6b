// Refunds due (docs/billing.md#refund-due): the flag beside a late PSE or Nequi payment's status, and
// the card listing those still owed, each with its "mark as refunded" form (a plain form: it posts
// without JavaScript too).
import { Allowed } from '@/components/portal/allowed';
import Link from 'next/link';
import { formatCop } from '@/lib/i18n/format';
import type { Lang } from '@/lib/i18n/locale';
import { formatDateTime, PORTAL_COPY } from '@/lib/portal/i18n';
import { refundsCopy } from '@/lib/portal/refunds-i18n';
import { ActionForm, type FormAction } from './action-form';

export function RefundDueFlag({ lang }: { lang: Lang }) {
  return (
    <span className="badge wait" data-testid="refund-due">
      {refundsCopy(lang).flag}
    </span>
  );
}

interface RefundDue {
  id: string;
  planId: string;
  amount: number;
  paymentMethodType: string;
  gatewayTransactionId: string | null;
  chargeDate: Date;
  externalReference?: string;
}

/** Nothing when none is due; `markRefunded` is lib/portal/transactions/actions.ts's, passed in by the page. */
export function RefundsDue({ refunds, lang, markRefunded }: { refunds: RefundDue[]; lang: Lang; markRefunded: FormAction }) {
  if (refunds.length === 0) return null;
  const r = refundsCopy(lang);
  const t = PORTAL_COPY[lang];
  return (
    <section className="card" aria-labelledby="refunds-due" data-testid="refunds-due">
      <h2 id="refunds-due">{r.title}</h2>
      <p>{r.intro}</p>
      {refunds.map((refund) => (
        <div key={refund.id} data-testid={`refund-${refund.id}`}>
          <p>
            <RefundDueFlag lang={lang} /> <code>{refund.id}</code> · {formatCop(refund.amount)} · {refund.paymentMethodType} ·{' '}
            {formatDateTime(refund.chargeDate, lang)}
            {refund.externalReference && (
              <>
                {' · '}
                <Link href={`/portal/activity/plans/${refund.planId}`}>{refund.externalReference}</Link>
              </>
            )}
            {refund.gatewayTransactionId && (
              <>
                <br />
                {r.reference}: 
                <code>{refund.gatewayTransactionId}</code>
              </>
            )}
          </p>
          <Allowed to="business">
            <ActionForm action={markRefunded} submit={r.submit} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
              <input type="hidden" name="transactionId" value={refund.id} />
            </ActionForm>
          </Allowed>
        </div>
      ))}
    </section>
  );
}
