// The plan page's customers' side (docs/customers.md): the e-mails sent to the customer with how
// each attempt went, and how often the customer opened a manage link.
import { Allowed } from '@/components/portal/allowed';
import { CUSTOMER_PORTAL_COPY } from '@/lib/customers/portal-i18n';
import { MAX_EMAIL_ATTEMPTS } from '@/lib/email/attempts';
import { fill } from '@/lib/i18n/format';
import type { Lang } from '@/lib/i18n/locale';
import type { CustomerSideData } from '@/lib/portal/activity';
import { formatDateTime, PORTAL_COPY } from '@/lib/portal/i18n';
import { ScrollTable } from '@/components/scroll-table';
import { ActionForm, type FormAction } from './action-form';

/** `data` comes from the page's loadPlanPage; `resendEmail` is its server action (lib/portal/customers/actions.ts), passed in. */
export function CustomerSide({ data, lang, resendEmail }: { data: CustomerSideData; lang: Lang; resendEmail: FormAction }) {
  const c = CUSTOMER_PORTAL_COPY[lang];
  const { emails, manageLinks: use } = data;
  const t = PORTAL_COPY[lang];
  const givenUp = (e: (typeof emails)[number]) => !e.sentAt && e.attempts >= MAX_EMAIL_ATTEMPTS;
  // While it fails, its next attempt is due at claimedUntil (lib/email/attempts.ts); given up, the
  // merchant may send it again.
  const stateOf = (e: (typeof emails)[number]) => {
    const last = e.attemptList.at(-1);
    if (e.sentAt) return last?.transport === 'kept' ? c.emailKept : c.emailSent;
    if (givenUp(e)) return `${fill(c.emailGivenUp, { attempts: e.attempts })}: ${last?.error ?? ''}`;
    if (!last || last.ok) return c.emailPending;
    const next = e.claimedUntil ? ` · ${c.emailNextAttempt}: ${formatDateTime(e.claimedUntil, lang)}` : '';
    return `${c.emailFailed}: ${last.error ?? ''}${next}`;
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
        <ScrollTable labelledBy="customer-emails">
          {emails.map((e) => (
            <tr key={e.id} data-testid="customer-email">
              <th scope="row">{c.emailKinds[e.kind]}</th>
              <td>{e.toAddress}</td>
              <td>{formatDateTime(e.createdAt, lang)}</td>
              <td>
                {stateOf(e)}
                {givenUp(e) ? (
                  <Allowed to="business">
                    <ActionForm action={resendEmail} submit={c.emailResend} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
                      <input type="hidden" name="emailId" value={e.id} />
                    </ActionForm>
                  </Allowed>
                ) : null}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}
