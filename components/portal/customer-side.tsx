// The plan page's customers' side (docs/customers.md): the e-mails sent to the customer with how
// each attempt went, and how often the customer opened a manage link.
import { getDb } from '@/db/client';
import { manageLinkUse } from '@/lib/customers/manage-links';
import { CUSTOMER_PORTAL_COPY } from '@/lib/customers/portal-i18n';
import { listPlanEmails } from '@/lib/email/outbox';
import type { Lang } from '@/lib/i18n/locale';
import { formatDateTime } from '@/lib/portal/i18n';

export async function CustomerSide({ merchantId, planId, lang }: { merchantId: string; planId: string; lang: Lang }) {
  const c = CUSTOMER_PORTAL_COPY[lang];
  const db = await getDb();
  const [emails, use] = await Promise.all([listPlanEmails(db, { merchantId, planId }), manageLinkUse(db, planId)]);
  const stateOf = (e: (typeof emails)[number]) => {
    const last = e.attemptList.at(-1);
    if (e.sentAt) return last?.transport === 'kept' ? c.emailKept : c.emailSent;
    return last && !last.ok ? `${c.emailFailed}: ${last.error ?? ''}` : c.emailPending;
  };
  return (
    <section className="card" aria-labelledby="customer-side">
      <h2 id="customer-side">{c.customerTitle}</h2>
      <p data-testid="manage-link-use">
        {c.manageLinkUses}: <strong>{use.uses}</strong>
        {use.lastUsedAt ? ` · ${c.manageLinkLast}: ${formatDateTime(use.lastUsedAt, lang)}` : ` · ${c.manageLinkNone}`}
      </p>
      <h3 id="customer-emails">{c.emailsTitle}</h3>
      {emails.length === 0 ? (
        <p>{c.emailsNone}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="customer-emails">
          <table>
            <tbody>
              {emails.map((e) => (
                <tr key={e.id} data-testid="customer-email">
                  <th scope="row">{c.emailKinds[e.kind]}</th>
                  <td>{e.toAddress}</td>
                  <td>{formatDateTime(e.createdAt, lang)}</td>
                  <td>{stateOf(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
